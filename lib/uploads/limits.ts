/**
 * The image upload's limits, defined once. Pure constants with no imports (no I/O, no sharp): the
 * contract (lib/contracts/uploads.ts, also bundled for the browser) and the processing
 * (image.ts) read the same numbers.
 */

const MIB = 1024 * 1024;

/** The file itself, 5 MiB. */
export const MAX_UPLOAD_BYTES = 5 * MIB;
/** The whole upload request: the file plus 64 KiB for the form around it (boundaries, part headers, the type field). */
export const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BYTES + 64 * 1024;
/** The file limit in MB, as people read it. */
export const MAX_UPLOAD_MB = MAX_UPLOAD_BYTES / MIB;
/** Width and height, in pixels (of one frame for an animation). */
export const MAX_IMAGE_SIDE = 4096;
