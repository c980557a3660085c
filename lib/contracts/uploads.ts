/** Image upload and the serving of stored images (one domain: lib/uploads). */
import { z } from 'zod';
import { MAX_IMAGE_SIDE, MAX_UPLOAD_MB, UPLOAD_BODY_LIMIT } from '@/lib/uploads/limits';
import { ZSuccess } from './common';
import { defineEndpoint } from './endpoint';

export const uploadImage = defineEndpoint({
  id: 'upload.image',
  method: 'POST',
  path: '/api/upload/image',
  summary: `Upload an image (JPEG, PNG, WebP or GIF by content; at most ${MAX_UPLOAD_MB} MB and ${MAX_IMAGE_SIDE}x${MAX_IMAGE_SIDE}); metadata is stripped`,
  tag: 'uploads',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'upload',
  multipart: true,
  // The file plus the form around it; a larger body is refused unread (413).
  bodyLimit: UPLOAD_BODY_LIMIT,
  // Decoding and re-encoding a 4096x4096 image takes a few seconds on a slow machine.
  deadlineMs: 30_000,
  body: z.strictObject({ type: z.enum(['profile', 'cover', 'post']).default('post') }),
  status: 201,
  response: z.object({
    success: ZSuccess,
    id: z.string(),
    url: z.string().describe('relative URL of the stored image'),
    publicUrl: z.string().describe('absolute URL of the stored image'),
    contentType: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    size: z.number().int(),
  }),
  errors: ['VALIDATION_ERROR'],
});

/** Serving stored uploads: the bytes themselves, not JSON (errors still use the envelope). */
export const mediaGet = defineEndpoint({
  id: 'media.get',
  method: 'GET',
  path: '/api/uploads/{key}',
  summary: 'An uploaded image by its key (as in the url of POST /api/upload/image); cached as immutable',
  tag: 'uploads',
  auth: 'public',
  requires: ['read'],
  rateLimit: 'mediaRead',
  params: z.object({ key: z.string().min(1).max(200) }),
  envelope: false,
  responseType: 'image/*',
  response: z.any().describe('the image bytes with their stored content type (JPEG, PNG, WebP or GIF)'),
  errors: ['NOT_FOUND'],
});

export const uploadsEndpoints = [uploadImage, mediaGet] as const;
