/**
 * API keys (issue 33, CONTRACT.md "API keys"): a player creates, lists and revokes keys for their
 * bots; a key's own heartbeat arms its dead-man switch. The secret is answered once, at creation,
 * and stored only as its hash (lib/auth/api-key-credentials.ts, which also authenticates it).
 * Owner only: another player's keys are FORBIDDEN to list and not found to revoke. Expiry is wall
 * time (as every credential's); the heartbeat deadline is game time (the tick sweeps it).
 */
import 'server-only';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { apiKeys, standings, users, type TApiKeyRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { newApiKeySecret } from '@/lib/auth/api-key-credentials';
import { now } from '@/lib/clock/clock';
import { MAX_LIVE_KEYS, type TApiKeyScope } from './limits';
import { AppError } from '@/lib/errors/app-error';
import { dec, toDecimalString } from '@/lib/money/decimal';
import { cancelOrders } from '@/lib/orders/service';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A key as the API shows it (ZApiKey): never its secret or hash. */
export type TApiKey = {
  id: string;
  name: string;
  prefix: string;
  scopes: TApiKeyScope[];
  maxOrderAmount: string | null;
  dailyLimit: string | null;
  maxLeverage: string | null;
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  heartbeat: { timeoutSeconds: number; deadline: string } | null;
};

export function apiKeyDto(r: TApiKeyRow): TApiKey {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes as TApiKeyScope[],
    maxOrderAmount: r.maxOrderAmount === null ? null : toDecimalString(r.maxOrderAmount),
    dailyLimit: r.dailyLimit === null ? null : toDecimalString(r.dailyLimit),
    maxLeverage: r.maxLeverage === null ? null : dec(r.maxLeverage).toFixed(),
    expiresAt: iso(r.expiresAt),
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: iso(r.lastUsedAt),
    revokedAt: iso(r.revokedAt),
    heartbeat: r.heartbeatDeadline && r.heartbeatTimeoutS !== null ? { timeoutSeconds: r.heartbeatTimeoutS, deadline: r.heartbeatDeadline.toISOString() } : null,
  };
}

const assertOwner = (caller: TCaller, userId: string) => {
  if (caller.userId !== userId) throw new AppError('FORBIDDEN', "You can only manage your own API keys", { userId });
};

const cap = (v: number | string | null | undefined) => (v === null || v === undefined ? null : toDecimalString(v));

export type TCreateApiKeyInput = {
  caller: TCaller;
  userId: string;
  name: string;
  scopes: TApiKeyScope[];
  maxOrderAmount?: number | string | null;
  dailyLimit?: number | string | null;
  maxLeverage?: number | string | null;
  expiresAt?: string | null;
};

export async function createApiKey(input: TCreateApiKeyInput) {
  const { caller } = input;
  assertOwner(caller, input.userId);
  const createdAt = new Date();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= createdAt.getTime()) {
    throw new AppError('VALIDATION_ERROR', 'expiresAt must be in the future', { expiresAt: input.expiresAt });
  }
  const db = await getDb();
  return db.transaction(async (tx) => {
    // One player's creations are serialised on their row, so the count below holds.
    await tx.execute(sql`select 1 from ${users} where id = ${caller.userId} for no key update`);
    const [{ live }] = (await tx
      .select({ live: sql<number>`count(*)::int` })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, caller.userId), isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, createdAt))))) as [{ live: number }];
    if (live >= MAX_LIVE_KEYS) throw new AppError('TOO_MANY_KEYS', `You have ${live} live API keys, the most allowed: revoke one first`, { limit: MAX_LIVE_KEYS });
    const { secret, prefix, hash } = newApiKeySecret();
    const [row] = await tx
      .insert(apiKeys)
      .values({
        userId: caller.userId,
        name: input.name,
        prefix,
        secretHash: hash,
        scopes: [...new Set(input.scopes)],
        maxOrderAmount: cap(input.maxOrderAmount),
        dailyLimit: cap(input.dailyLimit),
        maxLeverage: input.maxLeverage === null || input.maxLeverage === undefined ? null : dec(input.maxLeverage).toFixed(),
        expiresAt,
        createdAt,
      })
      .returning();
    return { apiKey: apiKeyDto(row!), secret };
  });
}

export async function listApiKeys(input: { caller: TCaller; userId: string }) {
  assertOwner(input.caller, input.userId);
  const db = await getDb();
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.userId, input.userId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return { apiKeys: rows.map(apiKeyDto) };
}

/** Revokes at once: the next request with the key is 401 on every instance (nothing caches it). */
export async function revokeApiKey(input: { caller: TCaller; userId: string; keyId: string }) {
  assertOwner(input.caller, input.userId);
  const db = await getDb();
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date(), heartbeatDeadline: null, heartbeatTimeoutS: null })
    .where(and(eq(apiKeys.id, input.keyId), eq(apiKeys.userId, input.userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (rows.length === 0) throw new AppError('API_KEY_NOT_FOUND', 'No live API key of yours has that id', { keyId: input.keyId });
  return {};
}

/** The key's own call: arms (or re-arms) its dead-man switch for `timeoutSeconds` of game time. */
export async function heartbeatApiKey(input: { caller: TCaller; userId: string; keyId: string; timeoutSeconds: number }) {
  const { caller } = input;
  assertOwner(caller, input.userId);
  if (caller.apiKeyId !== input.keyId) {
    throw new AppError('NOT_THIS_KEY', 'A heartbeat is sent with the key it names (Authorization: Bearer pm_…)', { keyId: input.keyId });
  }
  const deadline = new Date(now().getTime() + input.timeoutSeconds * 1000);
  const db = await getDb();
  const rows = await db
    .update(apiKeys)
    .set({ heartbeatTimeoutS: input.timeoutSeconds, heartbeatDeadline: deadline })
    .where(and(eq(apiKeys.id, input.keyId), eq(apiKeys.userId, caller.userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (rows.length === 0) throw new AppError('API_KEY_NOT_FOUND', 'No live API key of yours has that id', { keyId: input.keyId });
  return { keyId: input.keyId, timeoutSeconds: input.timeoutSeconds, deadline: deadline.toISOString() };
}

/**
 * The tick's sweep of stopped heartbeats: every key whose deadline passed (game time) is disarmed
 * and each open order it placed is cancelled, its reserve refunded. Disarming first, in one
 * statement, means two ticks never cancel for the same lapse. Answers keys and orders handled.
 */
export async function sweepStoppedHeartbeats(opts: { limit?: number } = {}) {
  const db = await getDb();
  const at = now();
  const lapsed = await db.execute(sql`
    update ${apiKeys} set heartbeat_deadline = null, heartbeat_timeout_s = null
    where id in (select id from ${apiKeys} where heartbeat_deadline <= ${at.toISOString()}::timestamptz
                 order by heartbeat_deadline limit ${opts.limit ?? 200} for update skip locked)
    returning id, user_id`);
  const keys = rowsOf<{ id: string; user_id: string }>(lapsed);
  let orders = 0;
  for (const k of keys) {
    const { cancelled } = await cancelOrders({ caller: { userId: k.user_id }, apiKeyId: k.id });
    orders += cancelled.length;
  }
  return { keys: keys.length, orders };
}

/**
 * Marks an account that traded through a key as a bot (profiles and leaderboards show it), once:
 * the update matches nothing after the first time.
 */
export async function markBot(userId: string) {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const marked = await tx.update(users).set({ botSince: new Date() }).where(and(eq(users.id, userId), isNull(users.botSince))).returning({ id: users.id });
    // The leaderboard's read model shows it at once (its refresh derives the same kind).
    if (marked.length) await tx.execute(sql`update ${standings} set kind = 'agent' where user_id = ${userId} and kind = 'user'`);
  });
}
