/** Serving stored uploads: the bytes themselves, not JSON (errors still use the envelope). */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const mediaGet = defineEndpoint({
  id: 'media.get',
  method: 'GET',
  path: '/api/uploads/{key}',
  summary: 'An uploaded image by its key (as in the url of POST /api/upload/image); cached as immutable',
  tag: 'uploads',
  auth: 'public',
  rateLimit: 'mediaRead',
  params: z.object({ key: z.string().min(1).max(200) }),
  envelope: false,
  responseType: 'image/*',
  response: z.any().describe('the image bytes with their stored content type (JPEG, PNG, WebP or GIF)'),
  errors: ['NOT_FOUND'],
});

export const mediaEndpoints = [mediaGet] as const;
