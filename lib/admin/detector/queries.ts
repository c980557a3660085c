/**
 * The detector's reads: one statement per rule input, each over a bounded time window and
 * through indexes, so a run costs the same on a quiet and a busy day except for the windows'
 * own rows. Reads only; the rules (./rules.ts) turn the rows into findings.
 *
 *   ring candidates  referred accounts made in the last 30 days (users_referred_by_idx, or one
 *                    pass over users at worst), only referrers with 3 or more of them, then
 *                    trades_user_created_idx per account
 *   referral income  balance_transactions_user_seq_idx for the candidate referrers only
 *   wash pairs       trades_created_idx for the day's trades, then trades_market_created_idx for
 *                    each one's ±10 minute neighbours on the same question; the reference price
 *                    through market_price_points_market_created_idx
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, textArray, type DbOrTx } from '@/db/client';
import { readWatermark, watermarkUpsert } from '@/db/watermarks';
import { balanceTransactions, marketPricePoints, markets, reports, trades, users } from '@/db/schema';
import { yesPriceSql } from '@/lib/markets/sql';
import { RULES, type TPairTradeRow, type TReferralIncomeRow, type TRingTradeRow } from './rules';

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const asDate = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));
/** A text[] column: postgres.js and PGlite parse arrays, but be safe with a literal. */
const asArray = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v.replace(/^\{|\}$/g, '').split(',').filter(Boolean).map((s) => s.replace(/^"|"$/g, '')) : [];

/** Referred accounts of referrers with 3+ recent referrals, and what each traded per question in the window. */
export async function loadRingTrades(db: DbOrTx, at: Date, onlyReferrers?: readonly string[]): Promise<TRingTradeRow[]> {
  if (onlyReferrers && onlyReferrers.length === 0) return [];
  const cfg = RULES.referralRing;
  const signupSince = new Date(at.getTime() - cfg.signupLookbackMs);
  const tradeSince = new Date(at.getTime() - cfg.tradeWindowMs);
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      with referred as (
        select u.id, u.username, u.referred_by_id, u.created_at from ${users} u
        where u.referred_by_id is not null and u.created_at > ${ts(signupSince)} and not u.is_actor and not u.is_pool_account
          ${onlyReferrers ? sql`and u.referred_by_id = any(${textArray(onlyReferrers)})` : sql``}
      ),
      candidates as (
        select referred_by_id from referred group by referred_by_id having count(*) >= ${cfg.minAccounts}
      )
      select a.referred_by_id as referrer_id, ru.username as referrer_username, a.id as user_id, a.username, a.created_at as user_created_at,
        t.market_id, m.text as question, count(*) as trades, sum(t.amount) as volume, sum(t.fee_referrer) as referral_fees,
        array_agg(distinct t.side) as sides, array_agg(t.id order by t.created_at, t.id) as trade_ids
      from referred a
      join candidates c on c.referred_by_id = a.referred_by_id
      join ${users} ru on ru.id = a.referred_by_id
      join ${trades} t on t.user_id = a.id and t.created_at > ${ts(tradeSince)} and t.created_at <= ${ts(at)}
      join ${markets} m on m.id = t.market_id
      group by a.referred_by_id, ru.username, a.id, a.username, a.created_at, t.market_id, m.text`),
  );
  return rows.map((r) => ({
    referrerId: String(r.referrer_id),
    referrerUsername: String(r.referrer_username),
    userId: String(r.user_id),
    username: String(r.username),
    userCreatedAt: asDate(r.user_created_at),
    marketId: String(r.market_id),
    question: String(r.question),
    trades: Number(r.trades),
    volume: String(r.volume ?? '0'),
    referralFees: String(r.referral_fees ?? '0'),
    sides: asArray(r.sides),
    tradeIds: asArray(r.trade_ids),
  }));
}

/** The referral_fee ledger rows of these referrers in the ring window, per referenced question. */
export async function loadReferralIncome(db: DbOrTx, referrerIds: string[], at: Date): Promise<TReferralIncomeRow[]> {
  if (referrerIds.length === 0) return [];
  const since = new Date(at.getTime() - RULES.referralRing.tradeWindowMs);
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select user_id, reference_id, sum(amount) as total, count(*) as n, array_agg(id order by seq) as ids
      from ${balanceTransactions}
      where user_id in (${sql.join(referrerIds.map((id) => sql`${id}`), sql`, `)}) and type = 'referral_fee'
        and created_at > ${ts(since)} and created_at <= ${ts(at)}
      group by user_id, reference_id`),
  );
  return rows.map((r) => ({
    referrerId: String(r.user_id),
    marketId: r.reference_id === null ? null : String(r.reference_id),
    total: String(r.total ?? '0'),
    count: Number(r.n),
    ledgerIds: asArray(r.ids),
  }));
}

/** A trade's direction on the YES price: +1 (buy YES, sell NO) or −1 (buy NO, sell YES). */
const direction = (alias: string) => sql.raw(`(case when (${alias}.side = 'YES') = (${alias}.action = 'buy') then 1 else -1 end)`);

/**
 * The paired trades of every pair of players (no NPC actors, no pool accounts) that moved the
 * same question in opposite directions within 10 minutes of each other, at least 4 distinct
 * trades each, in the last 24 h; with each question's reference price (rules.ts TPairTradeRow).
 */
export async function loadWashPairTrades(db: DbOrTx, at: Date, onlyPairs?: readonly (readonly [string, string])[]): Promise<TPairTradeRow[]> {
  if (onlyPairs && onlyPairs.length === 0) return [];
  // Only these pairs (a < b): the trades of their first accounts, each matched with its partner's.
  const pairA = onlyPairs ? textArray(onlyPairs.map((p) => p[0])) : undefined;
  const pairB = onlyPairs ? textArray(onlyPairs.map((p) => p[1])) : undefined;
  const cfg = RULES.washPair;
  const since = ts(new Date(at.getTime() - cfg.windowMs));
  const until = ts(at);
  const gap = sql.raw(`interval '${Math.round(cfg.pairGapMs / 1000)} seconds'`);
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      with w as (
        select t.id, t.user_id, t.market_id, t.created_at, ${direction('t')} as dir
        from ${trades} t join ${users} u on u.id = t.user_id
        where t.created_at > ${since} and t.created_at <= ${until} and not u.is_actor and not u.is_pool_account
          ${pairA ? sql`and t.user_id = any(${pairA})` : sql``}
      ),
      m as (
        select a.id as a_id, b.id as b_id, a.user_id as a_user, b.user_id as b_user
        from w a
        join ${trades} b on b.market_id = a.market_id
          and b.created_at between a.created_at - ${gap} and a.created_at + ${gap}
          and b.created_at > ${since} and b.created_at <= ${until}
          and b.user_id > a.user_id
          and ${direction('b')} <> a.dir
        join ${users} bu on bu.id = b.user_id and not bu.is_actor and not bu.is_pool_account
        ${pairA && pairB ? sql`join unnest(${pairA}, ${pairB}) as cp(a, b) on cp.a = a.user_id and cp.b = b.user_id` : sql``}
      ),
      pairs as (
        select a_user, b_user from m group by a_user, b_user
        having count(distinct a_id) >= ${cfg.minPairedTrades} and count(distinct b_id) >= ${cfg.minPairedTrades}
      ),
      ids as (
        select m.a_user, m.b_user, m.a_id as trade_id from m join pairs p on p.a_user = m.a_user and p.b_user = m.b_user
        union
        select m.a_user, m.b_user, m.b_id from m join pairs p on p.a_user = m.a_user and p.b_user = m.b_user
      ),
      paired as (
        select ids.a_user, ids.b_user, t.*, min(t.created_at) over (partition by ids.a_user, ids.b_user, t.market_id) as first_at
        from ids join ${trades} t on t.id = ids.trade_id
      )
      -- The reference price: the outcome once resolved, else the last price point before the
      -- pair's first paired trade on the question (market_price_points_market_created_idx).
      select r.a_user, r.b_user, r.id, r.user_id, u.username, r.market_id, mk.text as question, r.side, r.action,
        r.amount, r.shares, r.created_at,
        case when mk.status = 'resolved' then (case when mk.resolved_outcome = 'YES' then 1 else 0 end)
             else coalesce(
               (select pp.yes_price from ${marketPricePoints} pp where pp.market_id = r.market_id and pp.created_at < r.first_at
                order by pp.created_at desc limit 1),
               ${yesPriceSql('mk')}) end as yes_price
      from paired r
      join ${users} u on u.id = r.user_id
      join ${markets} mk on mk.id = r.market_id
      order by r.a_user, r.b_user, r.created_at, r.id`),
  );
  return rows.map((r) => ({
    pairA: String(r.a_user),
    pairB: String(r.b_user),
    tradeId: String(r.id),
    userId: String(r.user_id),
    username: String(r.username),
    marketId: String(r.market_id),
    question: String(r.question),
    side: r.side === 'NO' ? 'NO' : 'YES',
    action: r.action === 'sell' ? 'sell' : 'buy',
    amount: String(r.amount),
    shares: String(r.shares),
    createdAt: asDate(r.created_at),
    yesPriceRef: String(r.yes_price),
  }));
}

/**
 * The (rule, key) of every system report that still blocks a new one: open (pending or
 * reviewing), or filed within the last 24 h whatever its state.
 */
export async function loadBlockingReports(db: DbOrTx, at: Date) {
  const dayAgo = new Date(at.getTime() - 24 * 3_600_000);
  const rows = rowsOf<{ rule: string | null; key: string | null }>(
    await db.execute(sql`
      select details->>'rule' as rule, details->>'key' as key from ${reports}
      where source = 'system' and (status in ('pending', 'reviewing') or created_at > ${ts(dayAgo)})`),
  );
  return new Set(rows.map((r) => `${r.rule}:${r.key}`));
}

// ---------------------------------------------------------------------------------------------
// Incremental runs (migration 0028): a run reads the trades since the last run's watermark and
// what left the rules' windows since then, and passes the rules only the pairs and referrers
// those touch. A finding can only appear when its rows change (a pair's paired trades only grow
// with new trades; the 24 h window's end only removes some), when its window drops rows that
// held a ratio down (a ring's income), or when the report that blocked it stops blocking.

const DETECTOR_STATE_ID = 'self_dealing';

/** Trades up to this game time were looked at by the last run; undefined: never (a full run). */
export function loadWatermark(db: DbOrTx): Promise<Date | undefined> {
  return readWatermark(db, DETECTOR_STATE_ID);
}

export async function saveWatermark(db: DbOrTx, at: Date) {
  await db.execute(watermarkUpsert(DETECTOR_STATE_ID, ts(at)));
}

/** Trades made in (from, to] (trades_created_idx). */
export async function countTradesBetween(db: DbOrTx, from: Date, to: Date) {
  const [r] = rowsOf<{ n: string | number }>(
    await db.execute(sql`select count(*) as n from ${trades} where created_at > ${ts(from)} and created_at <= ${ts(to)}`),
  );
  return Number(r?.n ?? 0);
}

/** The keys of a rule's system reports that stopped blocking since `since`: resolved since, or 24 h old since. */
const unblockedKeys = async (db: DbOrTx, rule: string, since: Date, at: Date) => {
  const dayAgo = new Date(at.getTime() - 24 * 3_600_000);
  const sinceDayAgo = new Date(since.getTime() - 24 * 3_600_000);
  const rows = rowsOf<{ key: string | null }>(
    await db.execute(sql`
      select distinct details->>'key' as key from ${reports}
      where source = 'system' and details->>'rule' = ${rule} and status not in ('pending', 'reviewing') and created_at <= ${ts(dayAgo)}
        and (updated_at > ${ts(since)} or created_at > ${ts(sinceDayAgo)})`),
  );
  return rows.map((r) => r.key).filter((k): k is string => !!k);
};

/**
 * The pairs (a < b) a run since `since` must look at: those with a trade made since then paired
 * with one of the other's on the same question within 10 minutes in the window (the new trades
 * through trades_created_idx, their neighbours through trades_market_created_idx), and those
 * whose report stopped blocking.
 */
export async function loadChangedPairs(db: DbOrTx, since: Date, at: Date): Promise<[string, string][]> {
  const cfg = RULES.washPair;
  const from = ts(new Date(at.getTime() - cfg.windowMs));
  const gap = sql.raw(`interval '${Math.round(cfg.pairGapMs / 1000)} seconds'`);
  const rows = rowsOf<{ a: string; b: string }>(
    await db.execute(sql`
      select distinct least(n.user_id, o.user_id) as a, greatest(n.user_id, o.user_id) as b
      from ${trades} n
      join ${users} nu on nu.id = n.user_id and not nu.is_actor and not nu.is_pool_account
      join ${trades} o on o.market_id = n.market_id
        and o.created_at between n.created_at - ${gap} and n.created_at + ${gap}
        and o.created_at > ${from} and o.created_at <= ${ts(at)}
        and o.user_id <> n.user_id and ${direction('o')} <> ${direction('n')}
      join ${users} ou on ou.id = o.user_id and not ou.is_actor and not ou.is_pool_account
      where n.created_at > ${ts(since)} and n.created_at <= ${ts(at)} and n.created_at > ${from}`),
  );
  const pairs = new Map(rows.map((r) => [`${r.a}|${r.b}`, [String(r.a), String(r.b)] as [string, string]]));
  for (const key of await unblockedKeys(db, 'wash_pair', since, at)) {
    const [a, b] = key.split('|');
    if (a && b) pairs.set(key, [a, b]);
  }
  return [...pairs.values()].sort((x, y) => (x[0] + x[1]).localeCompare(y[0] + y[1]));
}

/**
 * The referrers a run since `since` must look at, among those with 3 or more referred accounts
 * made in the last 30 days (the rule's candidates): one of those accounts traded since then, or a
 * trade of theirs left the 7-day window since then; an account was made, or left the 30-day
 * window, since then; the referrer's referral income gained or lost a row in the 7-day window
 * since then (balance_transactions_user_seq_idx per candidate); or their report stopped blocking.
 */
export async function loadChangedReferrers(db: DbOrTx, since: Date, at: Date): Promise<string[]> {
  const cfg = RULES.referralRing;
  const signupSince = new Date(at.getTime() - cfg.signupLookbackMs);
  const signupSincePrev = new Date(since.getTime() - cfg.signupLookbackMs);
  const tradeSince = new Date(at.getTime() - cfg.tradeWindowMs);
  const tradeSincePrev = new Date(since.getTime() - cfg.tradeWindowMs);
  // In (since, at] or in (the window's start then, its start now]: what entered or left the window.
  const changed = (col: SQL, prevStart: Date, start: Date) =>
    sql`((${col} > ${ts(since)} and ${col} <= ${ts(at)}) or (${col} > ${ts(prevStart)} and ${col} <= ${ts(start)}))`;
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      with referred as (
        select u.id, u.referred_by_id, u.created_at from ${users} u
        where u.referred_by_id is not null and u.created_at > ${ts(signupSincePrev)} and not u.is_actor and not u.is_pool_account
      ),
      candidates as (
        select referred_by_id from referred where created_at > ${ts(signupSince)} group by referred_by_id having count(*) >= ${cfg.minAccounts}
      )
      select c.referred_by_id as id from candidates c
      where exists (select 1 from referred r where r.referred_by_id = c.referred_by_id and ${changed(sql`r.created_at`, signupSincePrev, signupSince)})
        or exists (
          select 1 from referred r join ${trades} t on t.user_id = r.id
          where r.referred_by_id = c.referred_by_id and r.created_at > ${ts(signupSince)} and ${changed(sql`t.created_at`, tradeSincePrev, tradeSince)})
        or exists (
          select 1 from ${balanceTransactions} bt where bt.user_id = c.referred_by_id and bt.type = 'referral_fee'
            and ${changed(sql`bt.created_at`, tradeSincePrev, tradeSince)})`),
  );
  const ids = new Set(rows.map((r) => String(r.id)));
  for (const key of await unblockedKeys(db, 'referral_ring', since, at)) ids.add(key);
  return [...ids].sort();
}
