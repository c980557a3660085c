/**
 * API keys as credentials (issue 33): `Authorization: Bearer pm_…`. The secret is 32 random bytes
 * (base64url) after `pm_`; only its SHA-256 is stored, so a lookup is one indexed, prepared query
 * that also loads the owner (as a session token's lookup does). Nothing is cached: a revoked key
 * is refused on the very next request, on every instance. An expired key is no credential
 * (expiry is wall time, as every token's). `lastUsedAt` is kept to the minute: a request writes
 * it only when the stored value is a minute old, and never waits for that write.
 * I/O: the database. Domain-free: the key's service (create, revoke, caps) is lib/api-keys.
 */
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { getDb, preparedQuery, type Db } from '@/db/client';
import { apiKeys, users, type TUserRow } from '@/db/schema';
import type { TPermission } from './permissions';

export const API_KEY_SECRET_PREFIX = 'pm_';
/** The characters of a secret shown as its `prefix`: `pm_` and 8 more. */
const SHOWN_PREFIX_LENGTH = API_KEY_SECRET_PREFIX.length + 8;
/** `lastUsedAt` is written when the stored value is at least this old. */
export const LAST_USED_RESOLUTION_MS = 60_000;
/** The longest secret worth hashing: ours are 46 characters. */
const MAX_SECRET_LENGTH = 200;

/** What a key lets its bearer do: the scopes (a subset of read, trade, social) and the caps. */
export type TApiKeyGrant = {
  id: string;
  scopes: readonly TPermission[];
  maxOrderAmount: string | null;
  dailyLimit: string | null;
  maxLeverage: string | null;
};

export function isApiKeySecret(token: string): boolean {
  return token.startsWith(API_KEY_SECRET_PREFIX);
}

/** A new secret and what is stored of it. */
export function newApiKeySecret(): { secret: string; prefix: string; hash: string } {
  const secret = API_KEY_SECRET_PREFIX + randomBytes(32).toString('base64url');
  return { secret, prefix: secret.slice(0, SHOWN_PREFIX_LENGTH), hash: hashApiKeySecret(secret) };
}

export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

const keyBySecret = (db: Db) =>
  db
    .select({
      id: apiKeys.id,
      scopes: apiKeys.scopes,
      maxOrderAmount: apiKeys.maxOrderAmount,
      dailyLimit: apiKeys.dailyLimit,
      maxLeverage: apiKeys.maxLeverage,
      expiresAt: apiKeys.expiresAt,
      lastUsedAt: apiKeys.lastUsedAt,
      user: users,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.secretHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
    .prepare('api_key_by_secret');

/** Notes a key's use, at most once a minute per key and instance, without waiting for it. */
const noteUse = (id: string, lastUsedAt: Date | null, at: Date) => {
  if (lastUsedAt && at.getTime() - lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  void getDb()
    .then((db) =>
      db
        .update(apiKeys)
        .set({ lastUsedAt: at })
        .where(and(eq(apiKeys.id, id), sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < ${new Date(at.getTime() - LAST_USED_RESOLUTION_MS).toISOString()}::timestamptz)`)),
    )
    .catch((e: unknown) => console.warn('[api-keys] lastUsedAt not written:', e));
};

/** The live key a secret names, with its owner; undefined when unknown, revoked or expired. */
export async function findKeyCredential(secret: string): Promise<{ grant: TApiKeyGrant; user: TUserRow; expiresAt: Date | null } | undefined> {
  if (!isApiKeySecret(secret) || secret.length > MAX_SECRET_LENGTH) return undefined;
  const db = await getDb();
  const [row] = await preparedQuery(db, 'api_key_by_secret', keyBySecret).execute({ hash: hashApiKeySecret(secret) });
  if (!row) return undefined;
  const at = new Date();
  if (row.expiresAt && row.expiresAt.getTime() <= at.getTime()) return undefined;
  noteUse(row.id, row.lastUsedAt, at);
  return {
    grant: { id: row.id, scopes: row.scopes as TPermission[], maxOrderAmount: row.maxOrderAmount, dailyLimit: row.dailyLimit, maxLeverage: row.maxLeverage },
    user: row.user,
    expiresAt: row.expiresAt,
  };
}
