/**
 * Bodies in and out, for every HTTP transport (REST's lib/http/route.ts, A2A's
 * lib/a2a/transport.ts): the same reader, the same limits, the same JSON answers.
 *
 * Reading a request body within its limit: a declared Content-Length over the limit is refused
 * before a byte is read, and a streamed body (no length, or a lying one) is counted as it
 * arrives and abandoned the moment it passes the limit. Either way: 413 PAYLOAD_TOO_LARGE.
 * A JSON body is then held to its media type (415), UTF-8, its nesting depth and JSON itself
 * (`readJson`); each transport answers a malformed one in its own way (REST 400, JSON-RPC -32700).
 *
 * Answering JSON (`jsonAnswer`, `errorAnswer`): no-store, and small answers left uncompressed.
 */
import { NextResponse } from 'next/server';
import { AppError, errorBody } from '@/lib/errors/app-error';
import { KIB, MAX_JSON_DEPTH, isJsonMediaType, jsonDepthExceeds, mediaTypeOf } from './limits';

const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than this route accepts (${Math.floor(limit / KIB)} KiB)`, { limit });

/** The body's bytes, at most `limit` of them; throws PAYLOAD_TOO_LARGE past it. */
export async function readBodyBytes(req: Request, limit: number): Promise<Uint8Array> {
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
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as UTF-8 text; malformed UTF-8 is a 400, not replacement characters in stored text. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new AppError('VALIDATION_ERROR', 'Request body is not valid UTF-8');
  }
}

/** A JSON body as read: none sent (no bytes, or white space only), the parsed value, or malformed (the 400 it is). */
export type TJsonBody = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'malformed'; error: AppError };

/**
 * The JSON body of a request, at most `limit` bytes: throws what every transport answers alike
 * (413, 400 for a Content-Length that is not a number, 415 for a body that is not JSON:
 * `application/json` or `application/*+json`), and tells a malformed body (not UTF-8, nested
 * deeper than MAX_JSON_DEPTH, not JSON) from none, for the transport to answer.
 */
export async function readJson(req: Request, limit: number): Promise<TJsonBody> {
  const bytes = await readBodyBytes(req, limit);
  if (bytes.byteLength === 0) return { kind: 'none' };
  const type = mediaTypeOf(req.headers.get('content-type'));
  if (!isJsonMediaType(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Request body must be JSON (Content-Type: application/json), not ${type || 'a body without Content-Type'}`);
  }
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch (e) {
    return { kind: 'malformed', error: e as AppError };
  }
  if (text.trim() === '') return { kind: 'none' };
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    return { kind: 'malformed', error: new AppError('VALIDATION_ERROR', `Request body nests deeper than ${MAX_JSON_DEPTH} levels`) };
  }
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    return { kind: 'malformed', error: new AppError('VALIDATION_ERROR', 'Request body must be valid JSON') };
  }
}

/**
 * Answers below this size go out uncompressed: gzip of a couple of kilobytes costs the server
 * more CPU than it saves anyone (measured: 9% of a busy server's time on perps answers).
 * `no-transform` is what tells Next's compression to leave a response alone; API answers are
 * live data, so `no-store` as well.
 */
const COMPRESS_ABOVE_BYTES = 8 * 1024;

/**
 * JSON.stringify(payload), writing a value that two top-level fields share only once: an answer
 * that gives the specification's main and variant names for the same list (questions and markets,
 * 20 questions each) would otherwise serialize it twice. The same text as JSON.stringify for a
 * plain object (a field whose value has no JSON form is left out, as there); anything else is
 * JSON.stringify's.
 */
export function answerText(payload: unknown): string {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload) || Object.getPrototypeOf(payload) !== Object.prototype || 'toJSON' in payload) {
    return JSON.stringify(payload);
  }
  const entries = Object.entries(payload as Record<string, unknown>);
  const seen = new Set<unknown>();
  let shared = false;
  for (const [, v] of entries) {
    if (v === null || typeof v !== 'object') continue;
    if (seen.has(v)) shared = true;
    seen.add(v);
  }
  if (!shared) return JSON.stringify(payload);
  const written = new Map<unknown, string | undefined>();
  const parts: string[] = [];
  for (const [k, v] of entries) {
    let text: string | undefined;
    if (v !== null && typeof v === 'object') {
      if (written.has(v)) text = written.get(v);
      else written.set(v, (text = JSON.stringify(v)));
    } else {
      text = JSON.stringify(v);
    }
    if (text !== undefined) parts.push(`${JSON.stringify(k)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/** A JSON answer: the payload as JSON text, with `headers`, not stored, small ones uncompressed. */
export function jsonAnswer(payload: unknown, status: number, headers: Record<string, string>): NextResponse {
  const text = answerText(payload);
  const h: Record<string, string> = { ...headers, 'content-type': 'application/json' };
  h['Cache-Control'] = text.length < COMPRESS_ABOVE_BYTES ? 'no-store, no-transform' : 'no-store';
  return new NextResponse(text, { status, headers: h });
}

/**
 * A typed error in the REST envelope ({success: false, error: {code, message, details}}), with
 * its status and its own headers (Allow on a 405); 503 DEADLINE_EXCEEDED says to retry in 1 s.
 */
export function errorAnswer(e: AppError, headers: Record<string, string>): NextResponse {
  const h = { ...headers, ...e.headers };
  if (e.code === 'DEADLINE_EXCEEDED') h['Retry-After'] = '1';
  return jsonAnswer(errorBody(e.code, e.message, e.details), e.status, h);
}
