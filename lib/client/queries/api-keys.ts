/**
 * API keys in the browser (issue 33): the owner's keys, creating one (its secret is in that one
 * answer only, so the caller keeps it in component state for the reveal and never in the cache)
 * and revoking one. queryOptions factories own the query key; both mutations invalidate the list.
 * The pure helpers read the create form's text into the contract's body, validated by the
 * contract's own zod schema (apiKeysCreate.body), so the form refuses exactly what the server
 * refuses, and tell a key's state (active, expired, revoked). I/O: the typed client only.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import { API_KEY_SCOPES, apiKeysCreate, apiKeysList, apiKeysRevoke, type TApiKey, type TApiKeyScope } from '@/lib/contracts/api-keys';
import type { TEndpointInput, TEndpointResponse } from '@/lib/contracts/endpoint';
import type { TErrorMessages } from './errors';

export type { TApiKey, TApiKeyScope };
export type TCreatedApiKey = TEndpointResponse<typeof apiKeysCreate>;
export type TCreateApiKeyBody = NonNullable<TEndpointInput<typeof apiKeysCreate>['body']>;

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: (userId: string) => [...apiKeyKeys.all, userId] as const,
};

// ---------------------------------------------------------------------------------------------
// Queries and mutations

/** The owner's keys, newest first, revoked ones included; never a secret. */
export function getApiKeysQueryOptions(userId: string) {
  return queryOptions({
    queryKey: apiKeyKeys.list(userId),
    queryFn: async () => (await api(apiKeysList, { params: { userId } })).apiKeys,
  });
}

export function useApiKeys(userId: string | undefined) {
  return useQuery({ ...getApiKeysQueryOptions(userId ?? ''), enabled: !!userId });
}

/** Creates a key; the answer carries its secret, once. */
export function useCreateApiKey(userId: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateApiKeyBody) => api(apiKeysCreate, { params: { userId: userId ?? '' }, body }),
    onSettled: () => qc.invalidateQueries({ queryKey: apiKeyKeys.list(userId ?? '') }),
  });
}

/** Revokes a key at once: every later call with it is 401. */
export function useRevokeApiKey(userId: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (key: Pick<TApiKey, 'id'>) => api(apiKeysRevoke, { params: { userId: userId ?? '', keyId: key.id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: apiKeyKeys.list(userId ?? '') }),
  });
}

// ---------------------------------------------------------------------------------------------
// The create form (pure)

export const SCOPE_WORDS: Record<TApiKeyScope, { label: string; description: string }> = {
  read: { label: 'Read', description: 'Every read: markets, prices, your balance, positions and orders.' },
  trade: { label: 'Trade', description: 'Every call that moves money: buys, sells, orders, perps, pools, payments.' },
  social: { label: 'Social', description: 'Posts, comments, reactions, follows, chats and reports.' },
};

/** The scopes in the contract's order, with their words. */
export const SCOPES = API_KEY_SCOPES.map((value) => ({ value, ...SCOPE_WORDS[value] }));

/** The form as typed: decimal text for the caps (empty: no cap), a yyyy-mm-dd date for the expiry (empty: never). */
export type TApiKeyDraft = {
  name: string;
  scopes: readonly TApiKeyScope[];
  maxOrderAmount: string;
  dailyLimit: string;
  maxLeverage: string;
  expiresOn: string;
};

export type TApiKeyField = keyof TApiKeyDraft;

export const EMPTY_API_KEY_DRAFT: TApiKeyDraft = { name: '', scopes: ['read'], maxOrderAmount: '', dailyLimit: '', maxLeverage: '', expiresOn: '' };

/** What each field must be, in the contract's rules (apiKeysCreate.body), as the form says it. */
export const API_KEY_FIELD_MESSAGES: Record<TApiKeyField, string> = {
  name: 'Give the key a name of 1 to 64 characters, like "market maker".',
  scopes: 'Pick at least one scope.',
  maxOrderAmount: 'Enter an amount above $0 and at most $1,000,000,000, or leave it empty for no cap.',
  dailyLimit: 'Enter an amount above $0 and at most $1,000,000,000,000, or leave it empty for no limit.',
  maxLeverage: 'Enter a leverage from 1 to 100, like 5, or leave it empty for no cap.',
  expiresOn: 'Pick a date from today on, or leave it empty: the key then lives until you revoke it.',
};

/** Decimal text as people type it ("$1,000", ".5") in the contract's form ("1000", "0.5"); other text is left for the schema to refuse. */
const decimalText = (text: string) => {
  const t = text.trim().replace(/^\$\s*/, '').replace(/,/g, '');
  return t.startsWith('.') ? `0${t}` : t;
};

/** The end of a yyyy-mm-dd day in the reader's time zone, as ISO 8601; null when it is not a date. */
export function endOfLocalDay(date: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(y, mo - 1, d, 23, 59, 59, 999);
  if (at.getFullYear() !== y || at.getMonth() !== mo - 1 || at.getDate() !== d) return null;
  return at.toISOString();
}

export type TBuiltApiKeyBody = { ok: true; body: TCreateApiKeyBody } | { ok: false; errors: Partial<Record<TApiKeyField, string>> };

/**
 * The create form's body, validated by the contract's schema: an empty cap or expiry is left out
 * (no cap, never expires). Every field the schema refuses gets its sentence; an expiry must also
 * end after `nowMs` (the server compares it with its own clock).
 */
export function buildApiKeyBody(draft: TApiKeyDraft, nowMs: number): TBuiltApiKeyBody {
  const errors: Partial<Record<TApiKeyField, string>> = {};
  const body: Record<string, unknown> = { name: draft.name.trim(), scopes: API_KEY_SCOPES.filter((s) => draft.scopes.includes(s)) };
  for (const field of ['maxOrderAmount', 'dailyLimit', 'maxLeverage'] as const) {
    const t = decimalText(draft[field]);
    if (t !== '') body[field] = t;
  }
  if (draft.expiresOn.trim() !== '') {
    const iso = endOfLocalDay(draft.expiresOn);
    if (iso === null || Date.parse(iso) <= nowMs) errors.expiresOn = API_KEY_FIELD_MESSAGES.expiresOn;
    else body.expiresAt = iso;
  }
  const parsed = apiKeysCreate.body.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = (issue.path[0] === 'expiresAt' ? 'expiresOn' : issue.path[0]) as TApiKeyField;
      if (field in API_KEY_FIELD_MESSAGES) errors[field] ??= API_KEY_FIELD_MESSAGES[field];
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: body as TCreateApiKeyBody };
}

// ---------------------------------------------------------------------------------------------
// A key's state (pure)

export type TApiKeyState = 'active' | 'expired' | 'revoked';

/** Revoked wins over expired; an expiry at or before `nowMs` has passed. */
export function apiKeyState(key: Pick<TApiKey, 'revokedAt' | 'expiresAt'>, nowMs: number): TApiKeyState {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= nowMs) return 'expired';
  return 'active';
}

/** Live keys first (newest first, as the server lists them), then expired and revoked ones. */
export function sortApiKeys(keys: readonly TApiKey[], nowMs: number): TApiKey[] {
  const rank = (k: TApiKey) => (apiKeyState(k, nowMs) === 'active' ? 0 : 1);
  return keys.map((k, i) => ({ k, i })).sort((a, b) => rank(a.k) - rank(b.k) || a.i - b.i).map(({ k }) => k);
}

export const API_KEY_ERROR_MESSAGES: TErrorMessages = {
  TOO_MANY_KEYS: 'You have 25 live keys, the most allowed. Revoke one you no longer use, then create this one.',
  API_KEY_NOT_FOUND: 'We could not find this key: it may be revoked already. Reload the page.',
  INSUFFICIENT_SCOPE: 'Keys are managed from your own sign-in, never with a key.',
  FORBIDDEN: 'You can only manage your own keys.',
};
