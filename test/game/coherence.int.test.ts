/**
 * The world tells the truth (issue 19, deliverable 1), as properties of a simulated game day under
 * the test clock (96 ticks, 15 minutes of game time apart):
 *  - every NPC post that reports a trade names (trade_kind/trade_id) a real trade of that NPC (or
 *    of the pool it manages) whose side, ticker or question and leverage match the words;
 *  - every perp ticker has open interest and 24 h volume (NPCs trade perps);
 *  - every question a tick's news concerns moved, in that tick, the way the news implies;
 *  - an event that fulfils an event question resolves it YES at the next tick, with payouts;
 *  - funding is off its cap on most tickers and follows crowding (the crowded side pays); 24 h
 *    high ≥ mark ≥ 24 h low on every ticker (REST);
 *  - the ledger chain and the pools' books hold;
 *  - NPC books agree with their words (issue 31, deliverable 4): after every tick no NPC or pool
 *    account holds YES and NO of one market or a long and a short on one ticker, no pool manager
 *    holds personally the other side of a position their pool holds, and every NPC post that states
 *    a side it holds ("Still holding YES on …", "Running a long on $X") was written by an author
 *    that held that side after the tick or traded it in the tick.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as tickersRoute } from '@/app/api/markets/perps/route';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { questionRules } from '@/db/schema';
import { createMarket } from '@/lib/markets/service/create-market';
import type { TEventKind } from '@/lib/game/world-rules';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { resetEnvCache } from '@/lib/env';
import { NPC_POSTS_PER_TICK } from '@/lib/game/npc/plan';
import { runGameTick } from '@/lib/game/tick';
import { FUNDING_PREMIUM_CLAMP, FUNDING_RATE_CAP } from '@/lib/perps/math';
import { seedWorld } from '@/lib/world/seed/world';
import { call } from '@/test/http';
import { expectLedgerChain, expectPerpTickerCounters, expectPoolBooks } from '@/test/invariants';

const SEED = 'coherence-seed';
const T0 = new Date('2030-03-04T05:00:00.000Z');
const STEP_MS = 15 * 60_000;
const TICKS = 96;
const FUNDING_CAP = FUNDING_RATE_CAP.toNumber();
const tickTime = (i: number) => new Date(T0.getTime() + i * STEP_MS);

const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await (await getDb()).execute(query));

type TMarket = { id: string; question_number: number; status: string; resolved_outcome: string | null; yes: number };
const marketsNow = async () =>
  new Map(
    (
      await q<{ id: string; question_number: number; status: string; resolved_outcome: string | null; yes: string }>(sql`
        select id, question_number, status, resolved_outcome, (yes_shares / (yes_shares + no_shares))::text as yes from markets`)
    ).map((m) => [Number(m.question_number), { ...m, question_number: Number(m.question_number), yes: Number(m.yes) } as TMarket]),
  );

/** Per tick: the direction each question concerned by the tick's news should have moved (votes; ties dropped). */
type TMove = { tick: number; questionNumber: number; direction: 'YES' | 'NO'; before: TMarket; after: TMarket };
const moves: TMove[] = [];
/** Event questions fulfilled by a tick's event: question number → the tick of the first fulfilling event. */
const fulfilledAt = new Map<number, number>();
const statusAfter: Map<number, TMarket>[] = [];
/** Per tick: NPC and pool-manager posts in the feed, and whether the tick had news. */
const postsPerTick: { tick: number; posts: number; news: boolean }[] = [];
/** Per tick: books holding both sides, managers against their fund, and side words without the side. */
const bothSides: string[] = [];
const againstFund: string[] = [];
const sideClaims: { tick: number; content: string; ok: boolean }[] = [];

/** What the books look like after a tick (the three book rules of the header). */
const checkBooks = async (tick: number, at: string) => {
  for (const r of await q<{ user_id: string; market_id: string }>(sql`
    select mp.user_id, mp.market_id from market_positions mp join users u on u.id = mp.user_id and (u.is_actor or u.is_pool_account)
    where mp.shares > 0 and mp.settled_at is null group by mp.user_id, mp.market_id having count(distinct mp.side) > 1`))
    bothSides.push(`tick ${tick}: ${r.user_id} YES and NO on ${r.market_id}`);
  for (const r of await q<{ user_id: string; ticker: string }>(sql`
    select pp.user_id, pp.ticker from perp_positions pp join users u on u.id = pp.user_id and (u.is_actor or u.is_pool_account)
    where pp.status = 'open' group by pp.user_id, pp.ticker having count(distinct pp.side) > 1`))
    bothSides.push(`tick ${tick}: ${r.user_id} long and short on ${r.ticker}`);
  for (const r of await q<{ manager: string; key: string }>(sql`
    select pl.npc_actor_id as manager, mine.market_id as key from pools pl
      join market_positions mine on mine.user_id = pl.npc_actor_id and mine.shares > 0 and mine.settled_at is null
      join market_positions fund on fund.user_id = pl.account_user_id and fund.market_id = mine.market_id and fund.side <> mine.side and fund.shares > 0 and fund.settled_at is null
    union all
    select pl.npc_actor_id, mine.ticker from pools pl
      join perp_positions mine on mine.user_id = pl.npc_actor_id and mine.status = 'open'
      join perp_positions fund on fund.user_id = pl.account_user_id and fund.ticker = mine.ticker and fund.side <> mine.side and fund.status = 'open'`))
    againstFund.push(`tick ${tick}: manager ${r.manager} against their fund on ${r.key}`);
  // Posts of this tick that state a side the author holds (not trade announcements: those are checked against their trade).
  const said = await q<{ content: string; author_id: string; related_question_id: string | null }>(sql`
    select p.content, p.author_id, p.related_question_id from posts p join users u on u.id = p.author_id and u.is_actor
    where p.created_at = ${at}::timestamptz and p.trade_kind is null order by p.id`);
  for (const p of said) {
    const held = /\b(?:Still holding|My|Keeping my) (YES|NO)\b/.exec(p.content);
    const perp = /\bRunning a (long|short) on \$([A-Z0-9]+)/.exec(p.content);
    if (held && p.related_question_id) {
      const [r] = await q<{ n: number }>(sql`
        select (select count(*) from market_positions where user_id = ${p.author_id} and market_id = ${p.related_question_id} and side = ${held[1]} and shares > 0)
          + (select count(*) from trades where user_id = ${p.author_id} and market_id = ${p.related_question_id} and side = ${held[1]} and created_at = ${at}::timestamptz) as n`);
      const [other] = await q<{ n: number }>(sql`
        select count(*) as n from market_positions where user_id = ${p.author_id} and market_id = ${p.related_question_id} and side <> ${held[1]} and shares > 0 and settled_at is null`);
      sideClaims.push({ tick, content: p.content, ok: Number(r!.n) > 0 && Number(other!.n) === 0 });
    } else if (perp) {
      const [r] = await q<{ n: number }>(sql`
        select (select count(*) from perp_positions where user_id = ${p.author_id} and ticker = ${perp[2]} and side = ${perp[1]} and status = 'open')
          + (select count(*) from perp_trades where user_id = ${p.author_id} and ticker = ${perp[2]} and side = ${perp[1]} and created_at = ${at}::timestamptz) as n`);
      sideClaims.push({ tick, content: p.content, ok: Number(r!.n) > 0 });
    }
  }
};

beforeAll(async () => {
  process.env.GAME_SEED = SEED;
  process.env.ALLOW_TEST_CLOCK = '1';
  resetEnvCache();
  resetClock();
  setFixedTime(new Date(T0.getTime() - 3_600_000));
  await seedWorld(await getDb());
  // The seed's questions say nothing machine-readable about the world: ask a few event questions
  // as the tick does (a market and its rule), among them the issue's own "Will Solaris Grid be hit
  // by a scandal…?", so the day's news can fulfil them.
  const asked: [string, string, TEventKind][] = [
    ['org-solr', 'Will Solaris Grid be hit by a scandal by Sat, Mar 9?', 'scandal'],
    ['org-nexa', 'Will Nexa Dynamics launch a new product by Sat, Mar 9?', 'product_launch'],
    ['org-helx', 'Will Helix Biotherapeutics face a regulatory probe by Sat, Mar 9?', 'regulatory_probe'],
    ['org-qbit', 'Will Qubit Labs announce a partnership by Sat, Mar 9?', 'partnership'],
    ['org-orbt', 'Will Orbital Freight win a major contract by Sat, Mar 9?', 'contract_win'],
    ['org-kldr', 'Will Kaleido Robotics report an earnings beat by Sat, Mar 9?', 'earnings_beat'],
  ];
  for (const [organizationId, text, eventKind] of asked) {
    await withTransaction(async (tx) => {
      const market = await createMarket({ caller: null, text, resolutionDate: new Date('2030-03-09T12:00:00.000Z'), liquidity: 1000, tx });
      await tx.insert(questionRules).values({ marketId: market.id, kind: 'event', organizationId, eventKind, createdAt: new Date(T0.getTime() - 3_600_000) });
    });
  }

  for (let i = 0; i < TICKS; i++) {
    const before = await marketsNow();
    const r = (await runGameTick({ now: tickTime(i).toISOString() })) as { errors?: Record<string, string> };
    expect(r.errors).toBeUndefined();
    const after = await marketsNow();
    statusAfter.push(after);
    const at = tickTime(i).toISOString();
    // The tick's events and, read from the rules (not from the code under test), what each implies.
    const implied = await q<{ question_number: number; vote: number; fulfils: boolean }>(sql`
      select m.question_number,
        case when r.kind = 'event' then 1
             when r.kind = 'price' then sign(e.impact) * (case when r.comparison = 'above' then 1 else -1 end)
             else 0 end as vote,
        (r.kind = 'event') as fulfils
      from world_events e
        join markets m on m.question_number = any(e.related_questions)
        join question_rules r on r.market_id = m.id
      where e.created_at = ${at}::timestamptz and e.id like 'we-%'`);
    const votes = new Map<number, number>();
    for (const v of implied) votes.set(Number(v.question_number), (votes.get(Number(v.question_number)) ?? 0) + Number(v.vote));
    for (const [n, v] of votes) {
      if (v === 0) continue;
      moves.push({ tick: i, questionNumber: n, direction: v > 0 ? 'YES' : 'NO', before: before.get(n)!, after: after.get(n)! });
    }
    // Event questions this tick's events fulfil (asked before the event, due after it).
    const fulfilled = await q<{ question_number: number }>(sql`
      select distinct m.question_number from world_events e
        join question_rules r on r.kind = 'event' and r.event_kind = e.kind and r.organization_id = e.organization_id
          and (r.actor_id is null or r.actor_id = e.actor_id)
        join markets m on m.id = r.market_id
      where e.created_at = ${at}::timestamptz and e.id like 'we-%' and m.created_at < e.created_at and m.resolution_date > e.created_at
        and m.status = 'active'`);
    for (const f of fulfilled) if (!fulfilledAt.has(Number(f.question_number))) fulfilledAt.set(Number(f.question_number), i);
    await checkBooks(i, at);
    const [volume] = await q<{ posts: string; events: string }>(sql`
      select (select count(*) from posts p join users u on u.id = p.author_id and u.is_actor where p.created_at = ${at}::timestamptz)::text as posts,
        (select count(*) from world_events e where e.id like 'we-%' and e.created_at > ${tickTime(i - 1).toISOString()}::timestamptz
          and e.created_at <= ${at}::timestamptz)::text as events`);
    postsPerTick.push({ tick: i, posts: Number(volume!.posts), news: Number(volume!.events) > 0 });
  }
}, 240_000);

afterAll(() => {
  delete process.env.GAME_SEED;
  delete process.env.ALLOW_TEST_CLOCK;
  resetEnvCache();
  resetClock();
});

/** Words that claim a trade was made (what the tick's posts may only say about a real one). */
const TRADE_WORDS = /\b(opened|closed|bought|sold|buying|selling|aping|added a|took profit|cut the)\b/i;

describe('a simulated day of the world', () => {
  it('keeps NPC books to one side per market and ticker, managers with their fund, and side words true to the book', () => {
    expect(bothSides).toEqual([]);
    expect(againstFund).toEqual([]);
    expect(sideClaims.length).toBeGreaterThanOrEqual(3);
    expect(sideClaims.filter((c) => !c.ok)).toEqual([]);
  });

  it('keeps the NPC feed readable: at most 3 posts a tick (a game minute) without news, 6 with it', () => {
    expect(postsPerTick).toHaveLength(TICKS);
    for (const t of postsPerTick) expect(t.posts, `tick ${t.tick} (${t.news ? 'news' : 'quiet'})`).toBeLessThanOrEqual(t.news ? NPC_POSTS_PER_TICK.news : NPC_POSTS_PER_TICK.quiet);
    expect(postsPerTick.reduce((a, t) => a + t.posts, 0)).toBeGreaterThan(TICKS / 2);
  });

  it('links every NPC post that reports a trade to that trade, and the words match it', async () => {
    const posts = await q<{ id: string; author_id: string; content: string; trade_kind: string | null; trade_id: string | null }>(sql`
      select p.id, p.author_id, p.content, p.trade_kind, p.trade_id from posts p join actors a on a.user_id = p.author_id
      where p.created_at >= ${T0.toISOString()}::timestamptz order by p.created_at, p.id`);
    const claims = posts.filter((p) => TRADE_WORDS.test(p.content));
    const kinds = new Set<string>();
    for (const p of claims) {
      expect(p.trade_kind, p.content).not.toBeNull();
      expect(p.trade_id, p.content).not.toBeNull();
      // The trade's owner: the author, or the account of a pool the author manages.
      const owners = [p.author_id, ...(await q<{ account_user_id: string }>(sql`select account_user_id from pools where npc_actor_id = ${p.author_id}`)).map((r) => r.account_user_id)];
      kinds.add(p.trade_kind!);
      if (p.trade_kind === 'perp') {
        const [t] = await q<{ user_id: string; ticker: string; side: string; action: string; leverage: string }>(sql`
          select t.user_id, t.ticker, t.side, t.action, pp.leverage::text from perp_trades t join perp_positions pp on pp.id = t.position_id where t.id = ${p.trade_id}`);
        expect(t, p.content).toBeDefined();
        expect(owners).toContain(t!.user_id);
        // "… a 5x long on $ORBT", or a pool's "… our $ORBT long in …".
        const on = p.content.match(/\b(long|short) on \$([A-Z]{2,6})\b/);
        const our = p.content.match(/\$([A-Z]{2,6}) (long|short)\b/);
        const side = on ? on[1] : our?.[2];
        const ticker = on ? on[2] : our?.[1];
        expect(side).toBe(t!.side);
        expect(ticker).toBe(t!.ticker);
        const lev = p.content.match(/(\d+(?:\.\d+)?)x\b/);
        if (lev) expect(Number(lev[1])).toBe(Number(t!.leverage));
        if (/\b(opened|aping|added a)\b/i.test(p.content)) expect(t!.action).toBe('open');
        if (/\b(closed|took profit|cut the)\b/i.test(p.content)) expect(t!.action).toBe('close');
      } else {
        expect(p.trade_kind).toBe('prediction');
        const [t] = await q<{ user_id: string; side: string; action: string; text: string; question_number: number }>(sql`
          select t.user_id, t.side, t.action, m.text, m.question_number from trades t join markets m on m.id = t.market_id where t.id = ${p.trade_id}`);
        expect(t, p.content).toBeDefined();
        expect(owners).toContain(t!.user_id);
        const m = p.content.match(/\b(bought|sold) (YES|NO) on (?:"([^"]+)"|question #(\d+))/i);
        expect(m, p.content).not.toBeNull();
        expect(m![1]!.toLowerCase()).toBe(t!.action === 'buy' ? 'bought' : 'sold');
        expect(m![2]).toBe(t!.side);
        if (m![3]) expect(t!.text.startsWith(m![3].replace(/…$/, '').trimEnd())).toBe(true);
        else expect(Number(m![4])).toBe(Number(t!.question_number));
      }
    }
    // NPCs did announce trades of both kinds over the day.
    expect(kinds).toEqual(new Set(['perp', 'prediction']));
  });

  it('gives every ticker open interest and 24 h volume, keeps funding off its cap on most and 24 h high ≥ mark ≥ low', async () => {
    const res = await call(tickersRoute, '/api/markets/perps');
    expect(res.status).toBe(200);
    const tickers = res.body.tickers as {
      ticker: string;
      markPrice: number;
      indexPrice: number;
      high24h: number;
      low24h: number;
      volume24h: number;
      openInterest: number;
      openInterestLong: number;
      openInterestShort: number;
      fundingRate: number;
    }[];
    expect(tickers.length).toBe(8);
    // NPCs trade perps as players do: positions of their own, opened and closed.
    const [npc] = await q<{ opened: string; closed: string }>(sql`
      select count(*) filter (where t.action = 'open')::text as opened, count(*) filter (where t.action = 'close')::text as closed
      from perp_trades t join actors a on a.user_id = t.user_id where t.created_at >= ${T0.toISOString()}::timestamptz`);
    expect(Number(npc!.opened)).toBeGreaterThan(TICKS / 4);
    expect(Number(npc!.closed)).toBeGreaterThan(0);
    for (const t of tickers) {
      expect(t.openInterest, t.ticker).toBeGreaterThan(0);
      expect(t.volume24h, t.ticker).toBeGreaterThan(0);
      expect(t.high24h, t.ticker).toBeGreaterThanOrEqual(t.markPrice);
      expect(t.markPrice, t.ticker).toBeGreaterThanOrEqual(t.low24h);
    }
    // Open interest in rough balance: on most tickers neither side holds more than 80% of it.
    const lopsided = tickers.filter((t) => Math.max(t.openInterestLong, t.openInterestShort) > 0.8 * t.openInterest);
    expect(lopsided.length, tickers.map((t) => `${t.ticker} ${t.openInterestLong}/${t.openInterestShort}`).join(', ')).toBeLessThan(tickers.length / 2);
    const capped = tickers.filter((t) => Math.abs(t.fundingRate) >= FUNDING_CAP - 1e-9);
    expect(capped.length, capped.map((t) => t.ticker).join(',')).toBeLessThan(tickers.length / 2);
    // Funding follows crowding (issue 31): the tick's arbitrage leaves the premium inside the clamp,
    // where it pays nothing, so the rate's sign is the open-interest imbalance's: the crowded side pays.
    const quiet = tickers.filter((t) => Math.abs(t.markPrice - t.indexPrice) <= t.indexPrice * FUNDING_PREMIUM_CLAMP.toNumber() * (1 + 1e-9));
    expect(quiet.length, tickers.map((t) => `${t.ticker} ${t.markPrice}/${t.indexPrice}`).join(', ')).toBeGreaterThanOrEqual(tickers.length / 2);
    for (const t of quiet) expect(Math.sign(t.fundingRate), `${t.ticker} ${t.fundingRate} ${t.openInterestLong}/${t.openInterestShort}`).toBe(Math.sign(t.openInterestLong - t.openInterestShort));
    // The funding periods paid during the day: most rates inside the cap too.
    const rates = await q<{ rate: string }>(sql`select rate::text from perp_funding_rates where period_start >= ${T0.toISOString()}::timestamptz`);
    expect(rates.length).toBeGreaterThanOrEqual(8);
    expect(rates.filter((r) => Math.abs(Number(r.rate)) >= FUNDING_CAP - 1e-9).length).toBeLessThan(rates.length / 2);
  });

  it('moves every question a tick’s news concerns the way the news implies, in that tick', () => {
    const checked = moves.filter((m) => m.before && m.after && m.after.status === 'active');
    expect(checked.length).toBeGreaterThanOrEqual(5);
    for (const m of checked) {
      const label = `tick ${m.tick}, question #${m.questionNumber}: ${m.before.yes} → ${m.after.yes}, expected ${m.direction}`;
      if (m.direction === 'YES') expect(m.after.yes, label).toBeGreaterThan(m.before.yes);
      else expect(m.after.yes, label).toBeLessThan(m.before.yes);
    }
  });

  it('resolves an event question its news fulfilled YES at the next tick, with payouts, and the books hold', async () => {
    const settled = [...fulfilledAt].filter(([, k]) => k + 1 < TICKS);
    expect(settled.length).toBeGreaterThanOrEqual(1);
    for (const [n, k] of settled) {
      expect(statusAfter[k]!.get(n)!.status, `question #${n} after the news tick`).toBe('active');
      // Its news trade took it near certain in that very tick (steps/prices.ts FULFILLED_PRICE): nobody buys it cheap for a tick.
      expect(statusAfter[k]!.get(n)!.yes, `question #${n} price after the news tick`).toBeGreaterThanOrEqual(0.97);
      const next = statusAfter[k + 1]!.get(n)!;
      expect(next.status, `question #${n} at the next tick`).toBe('resolved');
      expect(next.resolved_outcome).toBe('YES');
      const [paid] = await q<{ n: string }>(sql`
        select count(*)::text as n from balance_transactions where type = 'pred_payout' and reference_id = ${next.id}`);
      expect(Number(paid!.n), `payouts of question #${n}`).toBeGreaterThan(0);
    }
    await expectLedgerChain();
    await expectPoolBooks();
    await expectPerpTickerCounters();
  });
});
