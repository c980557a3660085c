/**
 * Reading a request body within its limit: a declared Content-Length over the limit is refused
 * before a byte is read, and a streamed body (no length, or a lying one) is counted as it
 * arrives and abandoned the moment it passes the limit. Either way: 413 PAYLOAD_TOO_LARGE.
 * I/O on the request stream only.
 */
import { AppError } from '@/lib/errors/app-error';
import { KIB } from './limits';

const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than this route accepts (${Math.floor(limit / KIB)} KiB)`, { limit });

/** The body's bytes, at most `limit` of them; throws PAYLOAD_TOO_LARGE past it. */
export const readBodyBytes = async (req: Request, limit: number): Promise<Uint8Array> => {
  const declared = req.headers.get('content-length');
  if (declared !== null) {
    const n = Number(declared);
    if (!/^\d+$/.test(declared.trim()) || !Number.isSafeInteger(n)) {
      throw new AppError('VALIDATION_ERROR', 'Content-Length is not a number');
    }
    if (n > limit) throw tooLarge(limit);
  }
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Stop reading: the rest is never pulled from the socket into memory.
      void reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as UTF-8 text; malformed UTF-8 is a 400, not replacement characters in stored text. */
export const decodeUtf8 = (bytes: Uint8Array): string => {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new AppError('VALIDATION_ERROR', 'Request body is not valid UTF-8');
  }
};
