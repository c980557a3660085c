/**
 * The registry as one union: ranked accounts from the standings read model (with their on-chain
 * identity) and the apps administrators registered. Filters and search apply inside each side.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { containsPattern } from '@/db/like';
import { onboardingIntents, pools, registryApps, standings, users } from '@/db/schema';

export type TRegistryType = 'user' | 'actor' | 'agent' | 'app';

export type TRegistryRow = {
  id: string;
  type: TRegistryType;
  name: string;
  username: string | null;
  profile_image_url: string | null;
  description: string | null;
  reputation: number | null;
  reputation_level: string | null;
  created_at: string | Date;
  on_chain_registered: boolean | null;
  nft_token_id: number | null;
  tx_hash: string | null;
  url: string | null;
  owner_id: string | null;
  owner_username: string | null;
  capabilities: string[] | null;
  manages_pool: boolean | null;
  total: string;
};

const entries = (filter: { type?: TRegistryType; search?: string; id?: string }) => {
  const pattern = filter.search ? containsPattern(filter.search) : null;
  const accounts = filter.type === 'app' ? sql`false` : filter.type ? sql`s.kind = ${filter.type}` : sql`true`;
  const apps = !filter.type || filter.type === 'app' ? sql`true` : sql`false`;
  const accountSearch = pattern ? sql`(u.username ilike ${pattern} or u.display_name ilike ${pattern})` : sql`true`;
  const appSearch = pattern ? sql`a.name ilike ${pattern}` : sql`true`;
  const accountId = filter.id ? sql`s.user_id = ${filter.id}` : sql`true`;
  const appId = filter.id ? sql`a.id = ${filter.id}` : sql`true`;
  return sql`
    select s.user_id as id, s.kind as type, coalesce(nullif(u.display_name, ''), u.username) as name, u.username,
      u.profile_image_url, u.bio as description, s.reputation, s.reputation_level, u.created_at,
      u.on_chain_registered, oi.nft_token_id, oi.tx_hash, null::text as url, null::text as owner_id, null::text as owner_username,
      null::jsonb as capabilities, exists (select 1 from ${pools} p where p.npc_actor_id = u.id) as manages_pool
    from ${standings} s
    join ${users} u on u.id = s.user_id
    left join ${onboardingIntents} oi on oi.user_id = u.id and oi.status = 'COMPLETED'
    where s.listed and ${accounts} and ${accountSearch} and ${accountId}
    union all
    select a.id, 'app', a.name, null, null, a.description, null, null, a.created_at,
      null, null, null, a.url, o.id, o.username, a.capabilities, null
    from ${registryApps} a join ${users} o on o.id = a.owner_id
    where ${apps} and ${appSearch} and ${appId}`;
};

/** A page, most reputable first (apps, without reputation, after accounts), id breaking ties. */
export async function loadRegistryPage(db: DbOrTx, filter: { type?: TRegistryType; search?: string; id?: string }, limit: number, offset: number) {
  return rowsOf<TRegistryRow>(
    await db.execute(sql`
      select e.*, count(*) over () as total from (${entries(filter)}) e
      order by e.reputation desc nulls last, e.id
      limit ${limit} offset ${offset}`),
  );
}

/** Every entry oldest first, after the cursor (created_at, id). */
export async function loadRegistryAfter(db: DbOrTx, after: { createdAt: string; id: string } | null, limit: number) {
  const cond: SQL = after ? sql`(e.created_at, e.id) > (${after.createdAt}::timestamptz, ${after.id})` : sql`true`;
  return rowsOf<TRegistryRow>(
    await db.execute(sql`
      select e.*, 0 as total from (${entries({})}) e
      where ${cond}
      order by e.created_at, e.id
      limit ${limit}`),
  );
}

export async function countRegistry(db: DbOrTx) {
  const [r] = rowsOf<{ n: string }>(
    await db.execute(sql`select (select count(*) from ${standings} where listed) + (select count(*) from ${registryApps}) as n`),
  );
  return Number(r?.n ?? 0);
}
