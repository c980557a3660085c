import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/game/rng';
import { planPoolTrades, type TPlanPool } from '@/lib/game/pools/plan';
import { prices, quoteBuy, quoteSell, toPool, toPublic, type TPool } from '@/lib/markets/cpmm';
import { dec } from '@/lib/money/decimal';
import { CATCH_UP_MAX, MAX_PRICE_MOVE, planNpcActivity, VALUE_EDGE, viewOf, type TNpcActor, type TNpcMarket, type TNpcWorld } from './plan';

const actor = (i: number, tier: TNpcActor['tier'] = 'B', balance = '20000'): TNpcActor => ({
  id: `actor-${i}`,
  username: `npc_${i}`,
  displayName: `Npc ${i}`,
  role: i % 2 ? 'Energy analyst' : 'Crypto-native trader',
  personality: '',
  tier,
  balance,
  orgTicker: null,
  orgName: null,
});

/** A market of the given depth (liquidity a side at 0.5) walked to `yesPrice`, valued at `fair`. */
const market = (id: string, n: number, yesPrice: number, fair: number | null, liquidity = 5000): TNpcMarket => {
  const k = dec(liquidity).pow(2);
  const no = k.times(yesPrice).div(1 - yesPrice).sqrt();
  const pub = toPublic({ yesReserve: k.div(no), noReserve: no });
  return { id, questionNumber: n, text: `Will question ${n} happen?`, yesPrice, yesShares: pub.yesShares.toFixed(), noShares: pub.noShares.toFixed(), fair };
};

const world = (over: Partial<TNpcWorld> = {}): TNpcWorld => ({
  acting: Array.from({ length: 6 }, (_, i) => actor(i, (['S', 'A', 'B', 'C'] as const)[i % 4])),
  allUsernames: Array.from({ length: 6 }, (_, i) => `npc_${i}`),
  orgs: [],
  markets: [market('cheap', 1, 0.2, 0.7), market('dear', 2, 0.8, 0.3), market('fair', 3, 0.5, 0.5)],
  holdings: [],
  perps: [],
  tickers: [],
  recentPosts: [],
  recentReplyPairs: new Set(),
  liked: new Set(),
  shared: new Set(),
  ...over,
});

/** The side a post takes on its question, from its words (null when it takes none). */
const sideOfPost = (content: string): 'YES' | 'NO' | null => {
  if (/\b(?:Leaning|Lean|lean|holding|Keeping my|My) YES\b/.test(content)) return 'YES';
  if (/\b(?:Leaning|Lean|lean|holding|Keeping my|My) NO\b/.test(content)) return 'NO';
  return null;
};

describe('NPCs trade toward value', () => {
  it('property: a cheap question is only bought YES (or its NO sold), a dear one the reverse; nobody trades inside the edge', () => {
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const holdings = [
          { userId: 'actor-0', marketId: 'cheap', side: 'NO' as const, shares: '300' },
          { userId: 'actor-1', marketId: 'dear', side: 'YES' as const, shares: '300' },
        ];
        const w = world({ holdings });
        const pools = new Map(w.markets.map((m) => [m.id, toPool({ yesShares: m.yesShares!, noShares: m.noShares! })]));
        for (const t of planNpcActivity(w, [], createRng(seed)).trades) {
          const m = w.markets.find((x) => x.id === t.marketId)!;
          const toward = (t.kind === 'buy') === (t.outcome === 'YES') ? 'YES' : 'NO';
          if (m.id === 'cheap') expect(toward).toBe('YES');
          if (m.id === 'dear') expect(toward).toBe('NO');
          // Only an actor whose own view strays past the edge of the price (as the tick's trades left it) trades, toward its view.
          const pool = pools.get(m.id)!;
          const view = viewOf(w.acting.find((a) => a.id === t.actorId)!, m)!;
          const price = prices(pool).yes.toNumber();
          expect(Math.abs(view - price)).toBeGreaterThan(VALUE_EDGE);
          expect(toward).toBe(view > price ? 'YES' : 'NO');
          pools.set(m.id, t.kind === 'buy' ? quoteBuy(pool, t.outcome, t.amount).pool : quoteSell(pool, t.outcome, t.shares).pool);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('property: each trade moves its market by MAX_PRICE_MOVE at most, and the tick’s trades never carry it past the traders’ views', () => {
    fc.assert(
      fc.property(fc.string(), fc.double({ min: 0.05, max: 0.95, noNaN: true }), fc.double({ min: 0.05, max: 0.95, noNaN: true }), (seed, price, fair) => {
        const w = world({ markets: [market('q', 1, price, fair)], acting: [actor(0, 'S'), actor(1, 'S'), actor(2, 'A')] });
        let pool: TPool = toPool({ yesShares: w.markets[0]!.yesShares!, noShares: w.markets[0]!.noShares! });
        const views = w.acting.map((a) => viewOf(a, w.markets[0]!)!);
        for (const t of planNpcActivity(w, [], createRng(seed)).trades) {
          const before = prices(pool).yes.toNumber();
          pool = t.kind === 'buy' ? quoteBuy(pool, t.outcome, t.amount).pool : quoteSell(pool, t.outcome, t.shares).pool;
          const after = prices(pool).yes.toNumber();
          expect(Math.abs(after - before)).toBeLessThanOrEqual(MAX_PRICE_MOVE + 1e-9);
          // Up moves stop at the highest view, down moves at the lowest.
          if (after > before) expect(after).toBeLessThanOrEqual(Math.max(...views) + 1e-9);
          if (after < before) expect(after).toBeGreaterThanOrEqual(Math.min(...views) - 1e-9);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('property: one side per market: holding the other side, an actor sells it rather than buy', () => {
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const holdings = world().acting.flatMap((a) => [
          { userId: a.id, marketId: 'cheap', side: 'NO' as const, shares: '100' },
          { userId: a.id, marketId: 'dear', side: 'YES' as const, shares: '100' },
        ]);
        const plan = planNpcActivity(world({ holdings }), [], createRng(seed));
        // Shares held as the tick's sales leave them; a buy needs none of the other side left.
        const left = new Map(holdings.map((h) => [`${h.userId}:${h.marketId}:${h.side}`, dec(h.shares)]));
        const bought = new Set<string>();
        for (const t of plan.trades) {
          const other = t.outcome === 'YES' ? 'NO' : 'YES';
          if (t.kind === 'sell') {
            const k = `${t.actorId}:${t.marketId}:${t.outcome}`;
            left.set(k, left.get(k)!.minus(t.shares));
            continue;
          }
          expect((left.get(`${t.actorId}:${t.marketId}:${other}`) ?? dec(0)).toNumber()).toBe(0);
          expect(bought.has(`${t.actorId}:${t.marketId}:${other}`)).toBe(false);
          bought.add(`${t.actorId}:${t.marketId}:${t.outcome}`);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('property: a trade never goes against the side its author’s post took on that question this tick', () => {
    let checked = 0;
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const holdings = [
          { userId: 'actor-2', marketId: 'cheap', side: 'YES' as const, shares: '50' },
          { userId: 'actor-3', marketId: 'fair', side: 'NO' as const, shares: '50' },
        ];
        // A tick that catches up on CATCH_UP_MAX minutes: enough trades beside a post to check.
        const plan = planNpcActivity(world({ holdings }), [], createRng(seed), CATCH_UP_MAX);
        for (const p of plan.posts) {
          const side = p.relatedQuestion ? sideOfPost(p.content) : null;
          if (!side) continue;
          for (const t of plan.trades.filter((x) => x.actorId === p.actorId && x.marketId === p.relatedQuestion)) {
            checked++;
            expect((t.kind === 'buy') === (t.outcome === side)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
    console.info(`[toward value] post/trade pairs checked: ${checked}`);
    expect(checked).toBeGreaterThan(0);
  });
});

describe('pool managers trade questions toward value', () => {
  const pool = (over: Partial<TPlanPool> = {}): TPlanPool => ({
    id: 'p-S',
    name: 'Pool S',
    tier: 'S',
    manager: { id: 'm', username: 'manager', role: 'Macro fund manager' },
    cash: 50_000,
    nav: 50_000,
    perps: [],
    predictions: [],
    ...over,
  });
  const questions = [market('cheap', 1, 0.2, 0.7), market('dear', 2, 0.8, 0.3), market('fair', 3, 0.5, 0.52)];

  it('buys the cheap side of mispriced questions only, each buy moving the price at most MAX_PRICE_MOVE', () => {
    let buys = 0;
    for (let i = 0; i < 100; i++) {
      const { trades } = planPoolTrades({ pools: [pool()], tickers: [], questions }, [], createRng(`q:${i}`));
      for (const t of trades) {
        if (t.kind !== 'buy') continue;
        buys++;
        expect(t.marketId).not.toBe('fair');
        expect(t.outcome).toBe(t.marketId === 'cheap' ? 'YES' : 'NO');
        const q = questions.find((x) => x.id === t.marketId)!;
        const p = toPool({ yesShares: q.yesShares!, noShares: q.noShares! });
        const after = quoteBuy(p, t.outcome, t.amount);
        expect(after.priceAfter.minus(after.priceBefore).toNumber()).toBeLessThanOrEqual(MAX_PRICE_MOVE + 1e-9);
      }
    }
    expect(buys).toBeGreaterThan(30);
  });

  it('never buys the side opposite to one the pool holds', () => {
    const held = pool({ predictions: [{ marketId: 'cheap', side: 'NO', shares: 10 }, { marketId: 'dear', side: 'YES', shares: 10 }] });
    for (let i = 0; i < 100; i++) {
      expect(planPoolTrades({ pools: [held], tickers: [], questions }, [], createRng(`h:${i}`)).trades.filter((t) => t.kind === 'buy')).toEqual([]);
    }
  });
});
