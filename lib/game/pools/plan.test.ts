import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/game/rng';
import type { TWorldEvent } from '@/lib/game/types';
import { POST_MAX_CHARS, visibleLength } from '@/lib/posts/text';
import { POOL_POSTS_PER_TICK } from '@/lib/game/npc/plan';
import { MAX_OPEN_PERPS, planPoolTrades, TIER_STYLE, type TPlanPool, type TTier } from './plan';

const tickers = [
  { ticker: 'NEXA', markPrice: 100, fairValue: 110 },
  { ticker: 'SOLR', markPrice: 30, fairValue: 27 },
];
const questions = [{ id: 'q1', questionNumber: 7, text: 'Will Solaris Grid be hit by a scandal?', yesPrice: 0.3 }];
const pool = (tier: TTier, over: Partial<TPlanPool> = {}): TPlanPool => ({
  id: `p-${tier}`,
  name: `Pool ${tier}`,
  tier,
  manager: { id: `m-${tier}`, username: `manager_${tier.toLowerCase()}`, role: 'Macro fund manager' },
  cash: 10000,
  nav: 10000,
  perps: [],
  predictions: [],
  ...over,
});
const news = (impact: number, directions: Record<number, 'YES' | 'NO'> = { 7: 'YES' }): TWorldEvent => ({
  id: 'e1',
  kind: 'scandal',
  title: 'Scandal engulfs Solaris Grid',
  content: '',
  organizationId: 'org-solr',
  ticker: 'SOLR',
  actorId: null,
  impact,
  relatedQuestions: [7],
  directions,
  createdAt: new Date(0),
});

describe('pool managers plan', () => {
  it('is deterministic for a seed', () => {
    const world = { pools: [pool('S'), pool('C')], tickers, questions };
    const a = planPoolTrades(world, [news(-0.04)], createRng('seed:1'));
    const b = planPoolTrades(world, [news(-0.04)], createRng('seed:1'));
    expect(a).toEqual(b);
  });

  it("a view never adds to a ticker's heavier side past the limit", () => {
    // NEXA's mark is below fair value (a long view) but its book is long-heavy; SOLR's is above (a
    // short view) and short-heavy: no view trades at all, whatever the seed.
    const lopsided = [
      { ...tickers[0]!, oiLong: 100_000, oiShort: 1_000 },
      { ...tickers[1]!, oiLong: 1_000, oiShort: 100_000 },
    ];
    let balanced = 0;
    for (let i = 0; i < 50; i++) {
      const { trades } = planPoolTrades({ pools: [pool('S'), pool('A')], tickers: lopsided, questions }, [], createRng(`v:${i}`));
      expect(trades.filter((t) => t.kind === 'open')).toEqual([]);
      balanced += planPoolTrades({ pools: [pool('S'), pool('A')], tickers, questions }, [], createRng(`v:${i}`)).trades.filter((t) => t.kind === 'open').length;
    }
    // The same pools do trade those views when the books are balanced.
    expect(balanced).toBeGreaterThan(10);
  });

  it('follows news in its direction and buys the side the news makes more likely', () => {
    // Tier S reacts to news 90% of the time: over many seeds, it mostly shorts SOLR on bad news,
    // and buys YES on "Will Solaris Grid be hit by a scandal?", which the scandal fulfils.
    let shorts = 0;
    let yesBuys = 0;
    for (let i = 0; i < 50; i++) {
      const { trades, posts } = planPoolTrades({ pools: [pool('S')], tickers, questions }, [news(-0.04)], createRng(`s:${i}`));
      if (trades.some((t) => t.kind === 'open' && t.ticker === 'SOLR' && t.side === 'short')) shorts++;
      if (trades.some((t) => t.kind === 'buy' && t.outcome === 'YES')) yesBuys++;
      expect(trades.some((t) => t.kind === 'buy' && t.outcome === 'NO')).toBe(false);
      expect(trades.some((t) => t.kind === 'open' && t.ticker === 'SOLR' && t.side === 'long')).toBe(false);
      for (const p of posts) expect(trades[p.tradeIndex]).toBeDefined();
    }
    expect(shorts).toBeGreaterThan(35);
    expect(yesBuys).toBeGreaterThan(35);
    // A price question the bad news makes less likely ("above"): NO, never YES.
    for (let i = 0; i < 20; i++) {
      const { trades } = planPoolTrades({ pools: [pool('S')], tickers, questions }, [news(-0.04, { 7: 'NO' })], createRng(`p:${i}`));
      expect(trades.some((t) => t.kind === 'buy' && t.outcome === 'YES')).toBe(false);
    }
  });

  it('never trades against its manager\'s own book, and posts within its share of the feed', () => {
    // The manager is personally long SOLR and holds NO on question 7: the fund, on bad news about
    // SOLR that makes YES likelier, neither shorts SOLR nor buys YES on 7 (and says at most
    // POOL_POSTS_PER_TICK.news posts a tick).
    const managerBook = { predictions: [{ marketId: 'q1', side: 'NO' as const }], perps: [{ ticker: 'SOLR', side: 'long' as const }] };
    let traded = 0;
    for (let i = 0; i < 50; i++) {
      const { trades, posts } = planPoolTrades({ pools: [pool('S', { managerBook }), pool('A'), pool('B'), pool('C')], tickers, questions }, [news(-0.04)], createRng(`own:${i}`));
      const mine = trades.filter((t) => t.poolId === 'p-S');
      traded += mine.length;
      expect(mine.some((t) => t.kind === 'open' && t.ticker === 'SOLR' && t.side === 'short')).toBe(false);
      expect(mine.some((t) => t.kind === 'buy' && t.marketId === 'q1' && t.outcome === 'YES')).toBe(false);
      expect(posts.length).toBeLessThanOrEqual(POOL_POSTS_PER_TICK.news);
      const quiet = planPoolTrades({ pools: [pool('S'), pool('A'), pool('B'), pool('C')], tickers, questions }, [], createRng(`own:${i}`));
      expect(quiet.posts.length).toBeLessThanOrEqual(POOL_POSTS_PER_TICK.quiet);
    }
    expect(traded).toBeGreaterThan(0);
  });

  it('takes profit and cuts losses past its thresholds', () => {
    const p = pool('B', {
      perps: [
        { id: 'win', ticker: 'NEXA', side: 'long', margin: 100, unrealizedPnL: 50, openedAt: 1 },
        { id: 'lose', ticker: 'SOLR', side: 'short', margin: 100, unrealizedPnL: -40, openedAt: 2 },
        { id: 'flat', ticker: 'NEXA', side: 'short', margin: 100, unrealizedPnL: 1, openedAt: 3 },
      ],
    });
    const closes = new Set<string>();
    for (let i = 0; i < 10; i++) {
      for (const t of planPoolTrades({ pools: [p], tickers, questions }, [], createRng(`c:${i}`)).trades) if (t.kind === 'close') closes.add(t.positionId);
    }
    expect(closes.has('win')).toBe(true);
    expect(closes.has('lose')).toBe(true);
  });

  it('never spends below its cash reserve, never exceeds the open-position cap, posts fit', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<TTier>('S', 'A', 'B', 'C'),
        fc.integer({ min: 0, max: 20000 }),
        fc.integer({ min: 0, max: MAX_OPEN_PERPS }),
        fc.string(),
        fc.double({ min: -0.1, max: 0.1, noNaN: true }),
        (tier, cash, held, seed, impact) => {
          const nav = 20000;
          const p = pool(tier, {
            cash,
            nav,
            perps: Array.from({ length: held }, (_, i) => ({ id: `x${i}`, ticker: 'NEXA', side: 'long' as const, margin: 10, unrealizedPnL: 0, openedAt: i })),
          });
          const { trades, posts } = planPoolTrades({ pools: [p], tickers, questions }, impact ? [news(impact)] : [], createRng(seed));
          let spent = 0;
          let opened = 0;
          for (const t of trades) {
            if (t.kind === 'open') {
              spent += t.size / t.leverage + t.size * 0.001;
              opened++;
            } else if (t.kind === 'buy') spent += t.amount;
          }
          const closesCredit = trades.filter((t) => t.kind === 'close').length * 10;
          if (spent > 0) expect(cash + closesCredit - spent).toBeGreaterThanOrEqual(nav * TIER_STYLE[tier].reserve - 1e-6);
          expect(held - trades.filter((t) => t.kind === 'close').length + opened).toBeLessThanOrEqual(MAX_OPEN_PERPS);
          for (const post of posts) expect(visibleLength(post.content)).toBeLessThanOrEqual(POST_MAX_CHARS);
        },
      ),
    );
  });
});
