/**
 * Reading the outbox in position order. Only rows whose transaction id is below the current
 * snapshot's xmin are read: every transaction below xmin has ended, so no row can still appear
 * before the last one read, and the cursor never skips a late commit. Committed rows at or above
 * xmin wait until the transactions older than them end; `pending` says such rows exist, so the
 * caller polls again soon (their commit's NOTIFY came before they became readable).
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { eventLog } from '@/db/schema';
import type { TPosition } from './position';

/** One logged event; `data` is the JSON text of its data, as stored (jsonb text has no newlines). */
export type TLoggedEvent = { position: TPosition; channel: string; type: string; data: string; /** When it was logged (Unix ms): the SSE delivery delay (lib/metrics). */ loggedAt?: number };

type TRow = { xmin: string; id: string | null; tx_id: string | null; channel: string | null; type: string | null; data: string | null; logged_at: number | string | null; pending: boolean };

export async function readEventsAfter(
  db: DbOrTx,
  after: TPosition,
  opts: { limit: number; channels?: readonly string[] },): Promise<{ events: TLoggedEvent[]; pending: boolean }> {
  const channelFilter = opts.channels ? sql`and e.channel in (${sql.join(opts.channels.map((c) => sql`${c}`), sql`, `)})` : sql``;
  // Left join: the one row of `s` always comes back, so `pending` is known even with no events.
  const rows = rowsOf<TRow>(
    await db.execute(sql`
      with s as (select pg_snapshot_xmin(pg_current_snapshot()) as xmin)
      select s.xmin::text as xmin, e.id::text as id, e.tx_id::text as tx_id, e.channel, e.type, e.data::text as data,
        (extract(epoch from e.created_at) * 1000)::float8 as logged_at,
        exists (select 1 from ${eventLog} p where p.tx_id >= s.xmin) as pending
      from s left join lateral (
        select * from ${eventLog} e
        where e.tx_id < s.xmin and (e.tx_id, e.id) > (${after.txId.toString()}::xid8, ${after.id.toString()}::bigint) ${channelFilter}
        order by e.tx_id, e.id
        limit ${opts.limit}
      ) e on true`),
  );
  const events: TLoggedEvent[] = [];
  for (const r of rows) {
    if (r.id === null) continue;
    events.push({ position: { txId: BigInt(r.tx_id!), id: BigInt(r.id) }, channel: r.channel!, type: r.type!, data: r.data!, loggedAt: Number(r.logged_at) });
  }
  return { events, pending: rows[0]?.pending === true };
}

/** The position before every event that is not yet readable: where a new listener starts. */
export async function readHeadPosition(db: DbOrTx): Promise<TPosition> {
  const [r] = rowsOf<{ xmin: string }>(await db.execute(sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`));
  return { txId: BigInt(r!.xmin), id: 0n };
}

/** Whether an event was logged at exactly this position: one probe of the (tx_id, id) index. */
export async function eventExistsAt(db: DbOrTx, p: TPosition): Promise<boolean> {
  const [r] = rowsOf<{ found: boolean }>(
    await db.execute(sql`select exists (select 1 from ${eventLog} where tx_id = ${p.txId.toString()}::xid8 and id = ${p.id.toString()}::bigint) as found`),
  );
  return r?.found === true;
}

const toPosition = (wire: string | null): TPosition | null => {
  if (wire === null) return null;
  const [txId, id] = wire.split('-');
  return { txId: BigInt(txId!), id: BigInt(id!) };
};

/**
 * The oldest retained event's position and the newest at or before `atOrBefore` (null when there
 * is none): two probes of the (tx_id, id) index, from either end.
 */
export async function readLogBounds(db: DbOrTx, atOrBefore: TPosition): Promise<{ oldest: TPosition | null; latest: TPosition | null }> {
  const [r] = rowsOf<{ oldest: string | null; latest: string | null }>(
    await db.execute(sql`select
      (select tx_id::text || '-' || id::text from ${eventLog} order by tx_id, id limit 1) as oldest,
      (select tx_id::text || '-' || id::text from ${eventLog}
        where (tx_id, id) <= (${atOrBefore.txId.toString()}::xid8, ${atOrBefore.id.toString()}::bigint)
        order by tx_id desc, id desc limit 1) as latest`),
  );
  return { oldest: toPosition(r?.oldest ?? null), latest: toPosition(r?.latest ?? null) };
}

/** Deletes events logged before `before` (the game tick keeps about a day for reconnects). */
export async function deleteEventsBefore(db: DbOrTx, before: Date) {
  const rows = rowsOf<{ n: string | number }>(
    await db.execute(sql`with gone as (delete from ${eventLog} where created_at < ${before.toISOString()}::timestamptz returning 1)
      select count(*) as n from gone`),
  );
  return Number(rows[0]?.n ?? 0);
}
