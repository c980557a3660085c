/**
 * The browser's typed client: api(endpoint, {params, query, body}) builds the URL from the
 * endpoint declaration, sends the session cookie, and returns the typed response or throws an
 * ApiError rebuilt from the error envelope (the UI switches on `code`, never on message text).
 * Money requests (endpoints marked `idempotent`) carry an Idempotency-Key per user action and are
 * sent once more when the first attempt got no answer at all.
 */
import type { TEndpoint, TEndpointInput, TEndpointResponse } from '@/lib/contracts/endpoint';
import { ERROR_STATUS, type TErrorCode } from '@/lib/errors/app-error';
import { createActionKeys } from './idempotency';

/**
 * What an ApiError's `code` can be: a code of the server's table (lib/errors/app-error), or one of
 * the client's own: NETWORK_ERROR (no answer at all) and HTTP_ERROR (an answer without our error
 * envelope, or with a code the table does not know).
 */
export type TApiErrorCode = TErrorCode | 'NETWORK_ERROR' | 'HTTP_ERROR';

const isServerCode = (code: unknown): code is TErrorCode => typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code);

export class ApiError extends Error {
  readonly code: TApiErrorCode;
  readonly status: number;
  readonly details?: Record<string, unknown>;

  constructor(status: number, code: TApiErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function buildPath(path: string, params: Record<string, unknown> = {}) {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === null || v === '') throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}

const queryString = (query: Record<string, unknown> = {}) => {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') sp.set(k, String(v));
  const s = sp.toString();
  return s ? `?${s}` : '';
};

/** The keys of the money requests this page has made (lib/client/idempotency). */
const actionKeys = createActionKeys();
/** A money request that got no answer is sent once more, with its key, after this pause. */
const RETRY_AFTER_MS = 400;

export async function api<E extends TEndpoint>(endpoint: E, input: TEndpointInput<E> = {}): Promise<TEndpointResponse<E>> {
  const url = buildPath(endpoint.path, input.params as Record<string, unknown>) + queryString(input.query as Record<string, unknown>);
  const hasBody = endpoint.method !== 'GET' && input.body !== undefined;
  const body = hasBody ? JSON.stringify(input.body) : undefined;
  const headers: Record<string, string> = hasBody ? { 'content-type': 'application/json' } : {};
  // A money request carries a key per user action, so a double click or a retry trades once.
  const fingerprint = endpoint.idempotent ? `${endpoint.id}|${url}|${body ?? ''}` : undefined;
  if (fingerprint) headers['Idempotency-Key'] = actionKeys.begin(fingerprint);
  const send = () => fetch(url, { method: endpoint.method, credentials: 'same-origin', headers, body });
  let res: Response;
  try {
    res = await send().catch(async (e: unknown) => {
      // Only a keyed request may be repeated blindly: the server answers it at most once.
      if (!fingerprint) throw e;
      await new Promise((r) => setTimeout(r, RETRY_AFTER_MS));
      return send();
    });
  } catch {
    if (fingerprint) actionKeys.unanswered(fingerprint);
    throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the server. Check your connection.');
  }
  if (fingerprint) actionKeys.answered(fingerprint);
  return readResponse<E>(res);
}

const readResponse = async <E extends TEndpoint>(res: Response): Promise<TEndpointResponse<E>> => {
  const data = (await res.json().catch(() => null)) as
    | (TEndpointResponse<E> & { success?: boolean; error?: { code: string; message: string; details?: Record<string, unknown> } })
    | null;
  if (!res.ok || !data || data.success === false) {
    const err = data?.error;
    throw new ApiError(res.status, isServerCode(err?.code) ? err.code : 'HTTP_ERROR', err?.message ?? `Request failed (${res.status})`, err?.details);
  }
  return data;
};

/**
 * A multipart endpoint (image upload): the form goes as is (the browser sets the boundary), the
 * answer and errors are read as api() reads them.
 */
export async function apiForm<E extends TEndpoint & { multipart: true }>(
  endpoint: E,
  form: FormData,
  input: Pick<TEndpointInput<E>, 'params' | 'query'> = {},): Promise<TEndpointResponse<E>> {
  const url = buildPath(endpoint.path, input.params as Record<string, unknown>) + queryString(input.query as Record<string, unknown>);
  let res: Response;
  try {
    res = await fetch(url, { method: endpoint.method, credentials: 'same-origin', body: form });
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the server. Check your connection.');
  }
  return readResponse<E>(res);
}
