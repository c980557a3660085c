/**
 * Pool reads: the list, one pool's page (NAV history, positions, activity, the caller's lots),
 * a user's lots (owner or administrator only) and an NPC's portfolio. NAV is computed live from
 * the pool account's holdings (lib/pools/holdings), never read from a stored figure.
 */
import 'server-only';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { getDb, rowsOf, type DbOrTx } from '@/db/client';
import {
  balanceTransactions,
  perpTrades,
  poolDeposits,
  poolNavPoints,
  pools,
  poolWithdrawals,
  trades,
  users,
  type TPoolDepositRow,
  type TPoolRow,
} from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { dec, toNumber } from '@/lib/money/decimal';
import { toLotDto, toPoolDto, type TManager, type TPoolStats } from '../dto';
import { loadHoldings, loadHoldingsOf, type THoldings } from '../holdings';
import { findActorPoolId } from './shared';

const DAY_MS = 86_400_000;
const SPARKLINE_POINTS = 24;
const HISTORY_POINTS = 240;
const RANGE_MS = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS, all: null } as const;
export type TPoolHistoryRange = keyof typeof RANGE_MS;

type TPoolWithManager = { pool: TPoolRow; manager: TManager };

const loadPools = async (db: DbOrTx, where?: ReturnType<typeof eq>): Promise<TPoolWithManager[]> => {
  const rows = await db
    .select({ pool: pools, manager: { id: users.id, username: users.username, displayName: users.displayName, profileImageUrl: users.profileImageUrl } })
    .from(pools)
    .innerJoin(users, eq(users.id, pools.npcActorId))
    .where(where)
    .orderBy(asc(sql`case ${pools.tier} when 'S' then 0 when 'A' then 1 when 'B' then 2 else 3 end`), desc(pools.totalValue), asc(pools.id));
  return rows;
};

/** 24 h statistics of the given pools in three statements: reference price, sparkline, volume and investors. */
const loadStats = async (db: DbOrTx, list: readonly TPoolRow[]): Promise<Map<string, TPoolStats>> => {
  const out = new Map<string, TPoolStats>();
  if (list.length === 0) return out;
  const ids = sql`array[${sql.join(
    list.map((p) => sql`${p.id}`),
    sql`, `,
  )}]::text[]`;
  const at = now();
  const since = new Date(at.getTime() - DAY_MS);
  const sinceSql = sql`${since.toISOString()}::timestamptz`;
  const bucketSec = (DAY_MS / 1000 / SPARKLINE_POINTS).toFixed(0);
  const [refs, spark, flows] = await Promise.all([
    db.execute(sql`
      select p.id as pool_id, coalesce(
        (select share_price from ${poolNavPoints} n where n.pool_id = p.id and n.created_at <= ${sinceSql} order by n.created_at desc limit 1),
        (select share_price from ${poolNavPoints} n where n.pool_id = p.id order by n.created_at asc limit 1)
      )::text as price
      from ${pools} p where p.id = any(${ids})`),
    db.execute(sql`
      select distinct on (pool_id, b) pool_id, b, share_price::text as price
      from (select pool_id, floor(extract(epoch from created_at) / ${sql.raw(bucketSec)}) as b, created_at, share_price
            from ${poolNavPoints} where pool_id = any(${ids}) and created_at > ${sinceSql}) x
      order by pool_id, b, created_at desc`),
    db.execute(sql`
      select p.id as pool_id,
        (coalesce((select sum(amount) from ${poolDeposits} d where d.pool_id = p.id and d.created_at > ${sinceSql} and not d.is_seed), 0)
         + coalesce((select sum(value) from ${poolWithdrawals} w where w.pool_id = p.id and w.created_at > ${sinceSql}), 0)
         + coalesce((select sum(size) from ${perpTrades} t where t.user_id = p.account_user_id and t.created_at > ${sinceSql}), 0)
         + coalesce((select sum(amount) from ${trades} t where t.user_id = p.account_user_id and t.created_at > ${sinceSql}), 0))::text as volume,
        (select count(distinct user_id)::int from ${poolDeposits} d where d.pool_id = p.id and d.remaining_shares > 0 and not d.is_seed) as investors
      from ${pools} p where p.id = any(${ids})`),
  ]);
  const sparks = new Map<string, number[]>();
  for (const r of rowsOf<{ pool_id: string; price: string }>(spark)) {
    const arr = sparks.get(r.pool_id) ?? [];
    arr.push(toNumber(r.price));
    sparks.set(r.pool_id, arr);
  }
  const refMap = new Map(rowsOf<{ pool_id: string; price: string | null }>(refs).map((r) => [r.pool_id, r.price]));
  for (const r of rowsOf<{ pool_id: string; volume: string; investors: number }>(flows)) {
    // The line starts at the price the 24 h change is measured from, so the two never disagree.
    const ref = refMap.get(r.pool_id) ?? null;
    const line = sparks.get(r.pool_id) ?? [];
    out.set(r.pool_id, { priceAgo: ref, sparkline: ref === null ? line : [toNumber(ref), ...line], volume24h: r.volume, investorCount: Number(r.investors) });
  }
  return out;
};

const callerLots = async (db: DbOrTx, userId: string, poolIds: readonly string[]) =>
  poolIds.length === 0
    ? []
    : db
        .select()
        .from(poolDeposits)
        .where(and(eq(poolDeposits.userId, userId), inArray(poolDeposits.poolId, [...poolIds])))
        .orderBy(desc(poolDeposits.createdAt), asc(poolDeposits.id));

const emptyHoldings = (accountId: string): THoldings => ({ accountId, cash: dec(0), perps: [], predictions: [], nav: dec(0), positionsValue: dec(0) });

const toDtos = async (db: DbOrTx, list: TPoolWithManager[], caller: TCaller | null) => {
  const [holdings, stats, lots] = await Promise.all([
    loadHoldings(
      db,
      list.map((p) => p.pool.accountUserId),
    ),
    loadStats(
      db,
      list.map((p) => p.pool),
    ),
    caller ? callerLots(db, caller.userId, list.map((p) => p.pool.id)) : Promise.resolve(null),
  ]);
  return list.map(({ pool, manager }) => {
    const h = holdings.get(pool.accountUserId) ?? emptyHoldings(pool.accountUserId);
    const s = stats.get(pool.id) ?? { priceAgo: null, sparkline: [], volume24h: '0', investorCount: 0 };
    // The caller's stake: null without a token or without shares in this pool.
    const held = lots ? lots.filter((l) => l.poolId === pool.id && dec(l.remainingShares).gt(0)) : [];
    const mine = held.length > 0 ? held : null;
    return { dto: toPoolDto(pool, manager, h, s, mine), holdings: h, lots: lots?.filter((l) => l.poolId === pool.id) ?? [] };
  });
};

/** GET /api/pools */
export async function listPools(input: { caller: TCaller | null; tier?: 'S' | 'A' | 'B' | 'C' }) {
  const db = await getDb();
  const list = await loadPools(db, input.tier ? eq(pools.tier, input.tier) : undefined);
  return { pools: (await toDtos(db, list, input.caller)).map((x) => x.dto) };
}

const loadHistory = async (db: DbOrTx, pool: TPoolRow, range: TPoolHistoryRange) => {
  const span = RANGE_MS[range];
  const to = now();
  const from = span === null ? pool.createdAt : new Date(to.getTime() - span);
  const bucketMs = Math.max(1000, Math.ceil((to.getTime() - from.getTime()) / HISTORY_POINTS));
  const rows = rowsOf<{ created_at: string | Date; share_price: string; total_value: string }>(
    await db.execute(sql`
      select distinct on (b) created_at, share_price::text as share_price, total_value::text as total_value
      from (select floor(extract(epoch from created_at) * 1000 / ${bucketMs}) as b, created_at, share_price, total_value
            from ${poolNavPoints} where pool_id = ${pool.id} and created_at >= ${from.toISOString()}::timestamptz) x
      order by b, created_at desc`),
  );
  return rows.map((r) => {
    const t = new Date(r.created_at);
    return { timestamp: t.toISOString(), time: Math.floor(t.getTime() / 1000), sharePrice: toNumber(r.share_price), totalValue: toNumber(r.total_value) };
  });
};

type TActivityRow = { id: string; type: string; amount: string; description: string; user_id: string | null; username: string | null; display_name: string | null; created_at: string | Date };

const ACTIVITY_LIMIT = 30;
const LEDGER_ACTIVITY = ['perp_open', 'perp_close', 'pred_buy', 'pred_sell', 'pred_payout', 'funding_paid'];

const loadActivity = async (db: DbOrTx, pool: TPoolRow) => {
  const n = sql.raw(String(ACTIVITY_LIMIT));
  const rows = rowsOf<TActivityRow>(
    await db.execute(sql`
      select a.*, u.username, u.display_name from (
        (select d.id, 'deposit' as type, d.amount::text as amount, 'Deposited' as description, d.user_id, d.created_at
          from ${poolDeposits} d where d.pool_id = ${pool.id} and not d.is_seed order by d.created_at desc limit ${n})
        union all
        (select w.id, 'withdraw', w.value::text, 'Withdrew', w.user_id, w.created_at
          from ${poolWithdrawals} w where w.pool_id = ${pool.id} order by w.created_at desc limit ${n})
        union all
        (select t.id, case when t.type = 'funding_paid' then 'funding' else t.type end, abs(t.amount)::text, t.description, null, t.created_at
          from ${balanceTransactions} t where t.user_id = ${pool.accountUserId}
            and t.type in (${sql.join(
              LEDGER_ACTIVITY.map((t) => sql`${t}`),
              sql`, `,
            )})
          order by t.seq desc limit ${n})
        union all
        (select pt.id, 'liquidation', pt.size::text, 'Liquidated a ' || pt.side || ' on ' || pt.ticker, null, pt.created_at
          from ${perpTrades} pt where pt.user_id = ${pool.accountUserId} and pt.action = 'liquidation' order by pt.created_at desc limit ${n})
      ) a left join ${users} u on u.id = a.user_id
      order by a.created_at desc, a.id limit ${n}`),
  );
  return rows.map((r) => ({
    id: r.id,
    type: r.type as 'deposit',
    amount: toNumber(r.amount),
    description: r.description,
    user: r.user_id ? { id: r.user_id, username: r.username ?? '', displayName: r.display_name ?? '' } : null,
    timestamp: new Date(r.created_at).toISOString(),
  }));
};

/** GET /api/pools/{id} */
export async function getPool(input: { caller: TCaller | null; poolId: string; range: TPoolHistoryRange }) {
  const db = await getDb();
  const [found] = await loadPools(db, eq(pools.id, input.poolId));
  if (!found) throw new AppError('NOT_FOUND', 'Pool not found', { poolId: input.poolId });
  const [[x], history, activity] = await Promise.all([toDtos(db, [found], input.caller), loadHistory(db, found.pool, input.range), loadActivity(db, found.pool)]);
  const h = x!.holdings;
  return {
    pool: x!.dto,
    history,
    positions: {
      perps: h.perps.map((p) => ({
        id: p.id,
        ticker: p.ticker,
        side: p.side,
        size: toNumber(p.size),
        units: toNumber(p.units),
        leverage: toNumber(p.leverage),
        entryPrice: toNumber(p.entryPrice),
        markPrice: toNumber(p.markPrice),
        collateral: toNumber(p.collateral),
        value: toNumber(p.value),
        unrealizedPnL: toNumber(p.unrealizedPnL),
        liquidationPrice: toNumber(p.liquidationPrice),
        openedAt: p.openedAt.toISOString(),
      })),
      predictions: h.predictions.map((p) => ({
        marketId: p.marketId,
        question: p.question,
        side: p.side,
        shares: toNumber(p.shares),
        price: toNumber(p.price),
        value: toNumber(p.value),
        costBasis: toNumber(p.costBasis),
        unrealizedPnL: toNumber(p.value.minus(p.costBasis)),
      })),
    },
    activity,
    userDeposits: x!.lots.map((l) => toLotDto(l, found.pool, h.nav)),
  };
}

/** GET /api/pools/deposits/{userId}: the owner or an administrator. */
export async function listUserDeposits(input: { caller: TCaller; userId: string }) {
  const { caller } = input;
  if (caller.userId !== input.userId && !caller.isAdmin) throw new AppError('FORBIDDEN', "Only the owner can see a user's pool deposits");
  const db = await getDb();
  if (caller.userId !== input.userId) {
    const [u] = await db.select({ id: users.id }).from(users).where(eq(users.id, input.userId));
    if (!u) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: input.userId });
  }
  const rows = await db
    .select({ lot: poolDeposits, pool: pools })
    .from(poolDeposits)
    .innerJoin(pools, eq(pools.id, poolDeposits.poolId))
    .where(eq(poolDeposits.userId, input.userId))
    .orderBy(desc(poolDeposits.createdAt), asc(poolDeposits.id));
  const holdings = await loadHoldings(db, [...new Set(rows.map((r) => r.pool.accountUserId))]);
  const deposits = rows.map((r) => toLotDto(r.lot as TPoolDepositRow, r.pool, holdings.get(r.pool.accountUserId)?.nav ?? dec(0)));
  const active = deposits.filter((d) => d.status === 'active');
  const sum = (xs: typeof deposits, f: (d: (typeof deposits)[number]) => number) => toNumber(xs.reduce((s, d) => s.plus(f(d)), dec(0)));
  return {
    deposits,
    totals: {
      invested: sum(active, (d) => d.costBasis),
      currentValue: sum(active, (d) => d.currentValue),
      unrealizedPnL: sum(active, (d) => d.unrealizedPnL),
      realizedPnL: sum(deposits, (d) => d.realizedPnL),
      feesPaid: sum(deposits, (d) => d.feesPaid),
    },
  };
}

/** GET /api/npc/{actorId}/portfolio: the pool the actor manages, position by position. */
export async function getNpcPortfolio(input: { actorId: string }) {
  const db = await getDb();
  const { poolId, actorId } = await findActorPoolId(db, input.actorId);
  const [pool] = await db.select().from(pools).where(eq(pools.id, poolId));
  const h = await loadHoldingsOf(db, pool!.accountUserId);
  return {
    portfolio: {
      actorId,
      poolId,
      totalValue: toNumber(h.nav),
      cash: toNumber(h.cash),
      positions: [
        ...h.perps.map((p) => ({
          ticker: p.ticker,
          shares: toNumber(p.units),
          value: toNumber(p.value),
          pnl: toNumber(p.unrealizedPnL),
          kind: 'perp' as const,
          side: p.side,
          marketId: null,
        })),
        ...h.predictions.map((p) => ({
          ticker: p.label,
          shares: toNumber(p.shares),
          value: toNumber(p.value),
          pnl: toNumber(p.value.minus(p.costBasis)),
          kind: 'prediction' as const,
          side: p.side,
          marketId: p.marketId,
        })),
      ],
    },
  };
}
