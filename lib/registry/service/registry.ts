/**
 * The registry (public reads) and its apps (administrators): GET /api/registry,
 * GET /api/registry/all, POST and DELETE /api/admin/registry/apps. Accounts come from the
 * standings read model: a new account is in it from its creation (a trigger, migration 0020), and
 * a read refreshes the marked accounts as the leaderboard's does (at most every 2 s per
 * instance), so a ban or a new agent flag shows within seconds without a tick.
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { registryApps } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { refreshIfStale } from '@/lib/standings/service/read-leaderboard';
import { profileHref } from '@/lib/users/links';
import { findUserByIdentifier } from '@/lib/users/queries';
import { A2A_ENDPOINT, A2A_METHODS, AGENT_CARD_PATH, capabilitiesOf } from '../capabilities';
import { countRegistry, loadRegistryAfter, loadRegistryPage, type TRegistryRow, type TRegistryType } from '../queries';

const iso = (d: string | Date) => new Date(d).toISOString();

/** An entry as the API answers it; links are absolute on `origin` (outside clients follow them). */
export function toRegistryEntry(r: TRegistryRow, origin: string) {
  const isApp = r.type === 'app';
  return {
    id: r.id,
    type: r.type,
    name: r.name,
    username: r.username,
    profileImageUrl: r.profile_image_url,
    url: isApp ? r.url! : `${origin}${profileHref({ username: r.username! })}`,
    description: r.description,
    reputation: isApp ? null : { score: r.reputation ?? 0, level: (r.reputation_level ?? 'newcomer') as 'newcomer' },
    capabilities: isApp ? (r.capabilities ?? []) : capabilitiesOf(r.type as 'user', { managesPool: Boolean(r.manages_pool) }),
    a2a: r.type === 'agent' ? { endpoint: `${origin}${A2A_ENDPOINT}`, agentCard: `${origin}${AGENT_CARD_PATH}`, methods: [...A2A_METHODS] } : null,
    onChain: isApp || r.type === 'actor' ? null : { registered: Boolean(r.on_chain_registered), tokenId: r.nft_token_id, txHash: r.tx_hash },
    owner: isApp ? { id: r.owner_id!, username: r.owner_username! } : null,
    createdAt: iso(r.created_at),
  };
}

export async function listRegistry(input: { type?: TRegistryType; search?: string; page: number; pageSize: number; origin: string }) {
  await refreshIfStale();
  const db = await getDb();
  const search = input.search?.trim() || undefined;
  const rows = await loadRegistryPage(db, { type: input.type, search }, input.pageSize, (input.page - 1) * input.pageSize);
  const total = rows.length ? Number(rows[0]!.total) : input.page === 1 ? 0 : (await loadRegistryPage(db, { type: input.type, search }, 1, 0)).map((r) => Number(r.total))[0] ?? 0;
  return {
    entries: rows.map((r) => toRegistryEntry(r, input.origin)),
    pagination: { page: input.page, pageSize: input.pageSize, total, totalPages: Math.max(1, Math.ceil(total / input.pageSize)) },
  };
}

/** One entry by id (an account or an app), or NOT_FOUND. */
export async function getRegistryEntry(input: { id: string; origin: string }) {
  await refreshIfStale();
  const db = await getDb();
  const [row] = await loadRegistryPage(db, { id: input.id }, 1, 0);
  if (!row) throw new AppError('NOT_FOUND', 'No such entry in the registry', { id: input.id });
  return toRegistryEntry(row, input.origin);
}

const encodeCursor = (r: TRegistryRow) => Buffer.from(JSON.stringify([iso(r.created_at), r.id])).toString('base64url');
const decodeCursor = (cursor: string) => {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string' && !Number.isNaN(Date.parse(v[0]))) {
      return { createdAt: new Date(v[0]).toISOString(), id: v[1] };
    }
  } catch {
    // answered below
  }
  throw new AppError('INVALID_PARAMETER', 'Invalid cursor', { cursor: cursor.slice(0, 64) });
};

export async function listWholeRegistry(input: { cursor?: string; limit: number; origin: string }) {
  await refreshIfStale();
  const db = await getDb();
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const [rows, total] = await Promise.all([loadRegistryAfter(db, after, input.limit + 1), countRegistry(db)]);
  const more = rows.length > input.limit;
  const page = more ? rows.slice(0, input.limit) : rows;
  return { entries: page.map((r) => toRegistryEntry(r, input.origin)), nextCursor: more ? encodeCursor(page[page.length - 1]!) : null, total };
}

export async function registerApp(input: {
  caller: TCaller;
  name: string;
  url: string;
  description?: string;
  ownerId: string;
  capabilities?: string[];
  origin: string;
}) {
  const db = await getDb();
  const owner = await findUserByIdentifier(db, input.ownerId);
  if (!owner || owner.isPoolAccount) throw new AppError('USER_NOT_FOUND', 'The owner does not exist', { field: 'ownerId', ownerId: input.ownerId });
  const [app] = await db
    .insert(registryApps)
    .values({
      name: input.name.trim(),
      url: input.url,
      description: input.description?.trim() ?? '',
      ownerId: owner.id,
      capabilities: [...new Set(input.capabilities ?? [])],
      createdById: input.caller.userId,
      createdAt: now(),
    })
    .returning();
  return {
    entry: toRegistryEntry({
      id: app!.id,
      type: 'app',
      name: app!.name,
      username: null,
      profile_image_url: null,
      description: app!.description,
      reputation: null,
      reputation_level: null,
      created_at: app!.createdAt,
      on_chain_registered: null,
      nft_token_id: null,
      tx_hash: null,
      url: app!.url,
      owner_id: owner.id,
      owner_username: owner.username,
      capabilities: app!.capabilities,
      manages_pool: null,
      total: '1',
    }, input.origin),
  };
}

export async function deleteApp(appId: string) {
  const db = await getDb();
  const [gone] = await db.delete(registryApps).where(eq(registryApps.id, appId)).returning({ id: registryApps.id });
  if (!gone) throw new AppError('NOT_FOUND', 'App not found', { appId });
  return { deleted: true as const };
}
