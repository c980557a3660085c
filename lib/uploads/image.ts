/**
 * Checking and re-encoding an uploaded image with sharp. The format comes from the magic bytes;
 * the output is the same format, turned upright by its EXIF orientation and written without any
 * metadata (EXIF, GPS, XMP, ICC comments), because sharp keeps none unless told to. Animated GIF
 * and WebP stay animated.
 */
import sharp, { type Metadata, type Sharp } from 'sharp';
import { AppError } from '@/lib/errors/app-error';
import { IMAGE_FORMATS, sniffImageFormat, type TImageFormat } from './formats';
import { MAX_IMAGE_SIDE, MAX_UPLOAD_BYTES } from './limits';

/** Every frame of an animation together: a small file must not decode into gigabytes. */
export const MAX_DECODED_PIXELS = MAX_IMAGE_SIDE * MAX_IMAGE_SIDE * 4;

export type TProcessedImage = {
  bytes: Uint8Array;
  format: TImageFormat;
  contentType: string;
  ext: string;
  width: number;
  height: number;
};

const invalid = (message: string, details?: Record<string, unknown>) => new AppError('VALIDATION_ERROR', message, details);

const encode = (img: Sharp, format: TImageFormat) => {
  switch (format) {
    case 'jpeg':
      return img.jpeg({ quality: 85, mozjpeg: true });
    case 'png':
      return img.png({ compressionLevel: 9 });
    case 'webp':
      return img.webp({ quality: 85 });
    case 'gif':
      return img.gif();
  }
};

/** Validates and re-encodes an upload; throws VALIDATION_ERROR (400) with a message a person can act on. */
export async function processImage(input: Uint8Array): Promise<TProcessedImage> {
  if (input.byteLength === 0) throw invalid('The file is empty');
  if (input.byteLength > MAX_UPLOAD_BYTES) {
    throw invalid(`The file is too large: at most ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB`, { size: input.byteLength, maxSize: MAX_UPLOAD_BYTES });
  }
  const format = sniffImageFormat(input);
  if (!format) throw invalid('Unsupported file: only JPEG, PNG, WebP and GIF images are accepted');

  const animated = format === 'gif' || format === 'webp';
  let meta: Metadata;
  try {
    meta = await sharp(input).metadata();
  } catch {
    throw invalid('The image is corrupt or cannot be read');
  }
  if (meta.format !== format) {
    // The magic bytes say one thing, the decoder another: not an image we want to keep.
    throw invalid('The image is corrupt or cannot be read');
  }
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (width < 1 || height < 1) throw invalid('The image is corrupt or cannot be read');
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw invalid(`The image is too large: at most ${MAX_IMAGE_SIDE}x${MAX_IMAGE_SIDE} pixels`, {
      width,
      height,
      maxWidth: MAX_IMAGE_SIDE,
      maxHeight: MAX_IMAGE_SIDE,
    });
  }
  if (width * height * (animated ? (meta.pages ?? 1) : 1) > MAX_DECODED_PIXELS) {
    throw invalid('The animation has too many frames', { pages: meta.pages });
  }

  try {
    const pipeline = sharp(input, { animated, limitInputPixels: MAX_DECODED_PIXELS, failOn: 'error' }).autoOrient();
    const { data, info } = await encode(pipeline, format).toBuffer({ resolveWithObject: true });
    return {
      bytes: new Uint8Array(data),
      format,
      ...IMAGE_FORMATS[format],
      width: info.width,
      height: info.pageHeight ?? info.height,
    };
  } catch {
    throw invalid('The image is corrupt or cannot be read');
  }
}
