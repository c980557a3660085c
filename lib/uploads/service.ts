/**
 * Image uploads: POST /api/upload/image stores a checked, re-encoded copy under a fresh flat key
 * and records it in `uploads`; GET /api/uploads/{key} serves the stored bytes for ever (keys are
 * never reused, so the answer is immutable).
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { uploads } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { publicOrigin } from '@/lib/system/public-origin';
import { processImage } from './image';
import { isValidStorageKey, uploadStore } from './storage';

export type TUploadKind = 'profile' | 'cover' | 'post';

export function uploadPath(key: string) {
  return `/api/uploads/${key}`;
}

/** The absolute origin of `publicUrl`: PUBLIC_BASE_URL or the request's own. */
export function requestOrigin(req: Request) {
  return publicOrigin(req.headers, req.url);
}

/** The `file` field of a multipart form as bytes; VALIDATION_ERROR when it is missing or not a file. */
const fileBytes = async (form: FormData | undefined): Promise<Uint8Array> => {
  const file = form?.get('file');
  if (file === null || file === undefined) throw new AppError('VALIDATION_ERROR', 'Missing file: send the image in the "file" field');
  if (typeof file === 'string') throw new AppError('VALIDATION_ERROR', 'The "file" field must be a file, not text');
  return new Uint8Array(await file.arrayBuffer());
};

/** Stores an image the caller uploads (they own it); `origin` makes `publicUrl` absolute. */
export async function uploadImage(opts: { caller: TCaller; kind: TUploadKind; form: FormData | undefined; origin: string }) {
  const image = await processImage(await fileBytes(opts.form));
  const id = crypto.randomUUID();
  const storageKey = `${id}.${image.ext}`;
  const store = uploadStore();
  await store.put(storageKey, image.bytes);
  try {
    await (await getDb()).insert(uploads).values({
      id,
      ownerId: opts.caller.userId,
      kind: opts.kind,
      storageKey,
      contentType: image.contentType,
      bytes: image.bytes.byteLength,
      width: image.width,
      height: image.height,
      createdAt: now(),
    });
  } catch (e) {
    await store.delete(storageKey).catch(() => {});
    throw e;
  }
  const url = uploadPath(storageKey);
  return {
    id,
    url,
    publicUrl: `${opts.origin}${url}`,
    contentType: image.contentType,
    width: image.width,
    height: image.height,
    size: image.bytes.byteLength,
  };
}

/**
 * The policy of a served file: the API's (nothing may load, nothing may frame it) plus `sandbox`,
 * so even a file that slipped past the format checks could not run script in our origin.
 */
const SERVED_FILE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox";

const notFound = (key: string) => new AppError('NOT_FOUND', 'Upload not found', { key });

/** The stored image as an HTTP answer, cached for a year; 404 for a key that is not ours. */
export async function serveUpload(key: string, req?: Request): Promise<Response> {
  if (!isValidStorageKey(key)) throw notFound(key);
  const [row] = await (await getDb())
    .select({ contentType: uploads.contentType })
    .from(uploads)
    .where(eq(uploads.storageKey, key))
    .limit(1);
  if (!row) throw notFound(key);
  const etag = `"${key}"`;
  const headers = {
    'Content-Type': row.contentType,
    'Cache-Control': 'public, max-age=31536000, immutable',
    ETag: etag,
    // Served from our origin: never sniffed into HTML, and sandboxed so that even a file that
    // slipped past the format checks could not run script here.
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': SERVED_FILE_CSP,
    // Other sites may show the images (profile pictures in embeds and share previews).
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
  if (req?.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  const bytes = await uploadStore().get(key);
  if (!bytes) throw notFound(key);
  return new Response(bytes as BodyInit, { status: 200, headers: { ...headers, 'Content-Length': String(bytes.byteLength) } });
}
