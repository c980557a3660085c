/**
 * The image upload's limits, defined once. Pure constants with no imports (no I/O, no sharp): the
 * contract (lib/contracts/uploads.ts, also bundled for the browser) and the processing
 * (image.ts) read the same numbers.
 */

/** The file itself, 5 MiB; the request may carry MULTIPART_OVERHEAD more for the form around it. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** Width and height, in pixels (of one frame for an animation). */
export const MAX_IMAGE_SIDE = 4096;
