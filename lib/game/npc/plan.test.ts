import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/game/rng';
import type { TWorldEvent } from '@/lib/game/types';
import { dec } from '@/lib/money/decimal';
import { visibleLength } from '@/lib/posts/text';
import {
  imbalanceOf,
  NPC_POSTS_PER_TICK,
  npcPostBudget,
  NEWS_POSTS_PER_TICK,
  longChance,
  PERP_LEVERAGE,
  PERP_SIZE,
  pickActingActors,
  planNpcActivity,
  TIER_WEIGHT,
  type TNpcActor,
  type TNpcTicker,
  type TNpcWorld,
} from './plan';

const actor = (i: number, tier: TNpcActor['tier'] = 'B', balance = '10000'): TNpcActor => ({
  id: `actor-${i}`,
  username: `npc_${i}`,
  displayName: `Npc ${i}`,
  role: i % 2 ? 'Energy analyst' : 'Crypto-native trader',
  personality: '',
  tier,
  balance,
  orgTicker: i % 3 === 0 ? 'NEXA' : null,
  orgName: i % 3 === 0 ? 'Nexa Dynamics' : null,
});

const world = (over: Partial<TNpcWorld> = {}): TNpcWorld => ({
  acting: [actor(0, 'S'), actor(1, 'A'), actor(2, 'C')],
  allUsernames: ['npc_0', 'npc_1', 'npc_2', 'npc_3'],
  orgs: [{ ticker: 'NEXA', name: 'Nexa Dynamics', sector: 'AI', price: 150, initialPrice: 142.5 }],
  markets: [
    { id: 'm1', questionNumber: 1, text: 'Will Nexa Dynamics ship v5?', yesPrice: 0.55 },
    { id: 'm2', questionNumber: 2, text: 'Will SOLR trade above 40?', yesPrice: 0.35 },
  ],
  holdings: [{ userId: 'actor-1', marketId: 'm2', side: 'NO', shares: '50' }],
  perps: [],
  tickers: [],
  recentPosts: [
    { id: 'p1', authorId: 'player-1', authorUsername: 'player_one', content: 'Long $NEXA into earnings #NEXA' },
    { id: 'p2', authorId: 'actor-0', authorUsername: 'npc_0', content: 'Quick update #AI' },
    { id: 'p3', authorId: 'actor-3', authorUsername: 'npc_3', content: 'Short everything' },
  ],
  recentReplyPairs: new Set(),
  liked: new Set(),
  shared: new Set(),
  ...over,
});

const event: TWorldEvent = {
  id: 'e1',
  kind: 'product',
  title: 'Nexa Dynamics unveils v5',
  content: '…',
  organizationId: 'org-nexa',
  ticker: 'NEXA',
  actorId: null,
  impact: 0.04,
  relatedQuestions: [1],
  directions: { 1: 'YES' },
  createdAt: new Date(0),
};

describe('pickActingActors', () => {
  it('picks distinct actors, at most n, all of them when n is large', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('S', 'A', 'B', 'C') as fc.Arbitrary<TNpcActor['tier']>, { maxLength: 30 }), fc.nat(40), fc.string(), (tiers, n, seed) => {
        const all = tiers.map((t, i) => actor(i, t));
        const picked = pickActingActors(all, n, createRng(seed));
        expect(picked.length).toBe(Math.min(n, all.length));
        expect(new Set(picked.map((a) => a.id)).size).toBe(picked.length);
      }),
    );
  });

  it('stars act more often than tier C', () => {
    const all = [actor(0, 'S'), actor(1, 'C')];
    let s = 0;
    const rng = createRng('weights');
    for (let i = 0; i < 2000; i++) if (pickActingActors(all, 1, rng)[0]!.tier === 'S') s++;
    expect(s / 2000).toBeGreaterThan(TIER_WEIGHT.S / (TIER_WEIGHT.S + TIER_WEIGHT.C) - 0.05);
  });
});

describe('planNpcActivity', () => {
  it('is deterministic for the same world, events and seed', () => {
    const a = planNpcActivity(world(), [event], createRng('tick-1'));
    const b = planNpcActivity(world(), [event], createRng('tick-1'));
    expect({ ...b, speakers: null }).toEqual({ ...a, speakers: null });
    expect(a.posts.length).toBeGreaterThanOrEqual(1);
    expect(a.posts.length).toBeLessThanOrEqual(NEWS_POSTS_PER_TICK.max);
  });

  it('keeps the feed readable: at most NPC_POSTS_PER_TICK less the pools\' share, counted over many ticks', () => {
    const counted = { quiet: [] as number[], news: [] as number[] };
    for (let i = 0; i < 400; i++) {
      const news = i % 2 === 1;
      const p = planNpcActivity(world(), news ? [event] : [], createRng(`volume-${i}`));
      const n = p.posts.length + p.trades.filter((t) => t.post).length + p.perpTrades.filter((t) => t.post).length;
      (news ? counted.news : counted.quiet).push(n);
    }
    expect(NPC_POSTS_PER_TICK).toEqual({ quiet: 3, news: 6 });
    expect(Math.max(...counted.quiet)).toBeLessThanOrEqual(npcPostBudget([]).npc);
    expect(Math.max(...counted.news)).toBeLessThanOrEqual(npcPostBudget([event]).npc);
    expect(npcPostBudget([]).npc + npcPostBudget([]).pool).toBe(NPC_POSTS_PER_TICK.quiet);
    expect(npcPostBudget([event]).npc + npcPostBudget([event]).pool).toBe(NPC_POSTS_PER_TICK.news);
    // Not silent either: a tick with news says more on average than a quiet one.
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(avg(counted.quiet)).toBeGreaterThan(0.5);
    expect(avg(counted.news)).toBeGreaterThan(avg(counted.quiet));
  });

  it('never plans a reply to oneself, to a pair that replied within the hour, or twice to one person', () => {
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const w = world({ recentReplyPairs: new Set(['actor-0:player-1']) });
        const plan = planNpcActivity(w, [], createRng(seed));
        const pairs = plan.replies.map((r) => `${r.actorId}:${r.replyToUserId}`);
        expect(new Set(pairs).size).toBe(pairs.length);
        for (const r of plan.replies) {
          expect(r.actorId).not.toBe(r.replyToUserId);
          expect(`${r.actorId}:${r.replyToUserId}`).not.toBe('actor-0:player-1');
          expect(visibleLength(r.content)).toBeGreaterThanOrEqual(10);
        }
        for (const l of [...plan.likes, ...plan.shares]) expect(w.recentPosts.find((p) => p.id === l.postId)!.authorId).not.toBe(l.actorId);
      }),
    );
  });

  it('buys stay within each actor balance and sales within the shares held', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 3, maxLength: 3 }), (seed, balances) => {
        const w = world({ acting: balances.map((b, i) => actor(i, 'B', String(b))) });
        const plan = planNpcActivity(w, [event], createRng(seed));
        const spent = new Map<string, ReturnType<typeof dec>>();
        for (const t of plan.trades) {
          if (t.kind === 'buy') {
            expect(dec(t.amount).gte(1)).toBe(true);
            spent.set(t.actorId, (spent.get(t.actorId) ?? dec(0)).plus(t.amount));
          } else {
            const held = w.holdings.find((h) => h.userId === t.actorId && h.marketId === t.marketId && h.side === t.outcome)!;
            expect(dec(t.shares).gt(0) && dec(t.shares).lte(held.shares)).toBe(true);
          }
        }
        for (const [id, total] of spent) expect(total.lte(w.acting.find((a) => a.id === id)!.balance)).toBe(true);
      }),
    );
  });

  it('actors without money or shares never trade; an actor with money does', () => {
    const broke = world({ acting: [actor(0, 'S', '0'), actor(1, 'A', '0.5')], holdings: [] });
    for (let i = 0; i < 50; i++) expect(planNpcActivity(broke, [event], createRng(`b${i}`)).trades).toEqual([]);
    const one = world({ acting: [actor(0, 'S', '0'), actor(1, 'A', '1000')], holdings: [] });
    const trades = planNpcActivity(one, [event], createRng('rich')).trades;
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((t) => t.actorId === 'actor-1')).toBe(true);
  });

  it('news moves traders: every trade of the news market goes the way the news implies', () => {
    let withNews = 0;
    for (let i = 0; i < 200; i++) {
      const holdings = [{ userId: 'actor-0', marketId: 'm1', side: 'YES' as const, shares: '50' }, { userId: 'actor-0', marketId: 'm1', side: 'NO' as const, shares: '50' }];
      for (const t of planNpcActivity(world({ holdings }), [event], createRng(`n${i}`)).trades) {
        if (t.marketId !== 'm1') continue;
        withNews++;
        // Buys of the favoured side, sales of the other one only.
        expect(t.outcome).toBe(t.kind === 'buy' ? 'YES' : 'NO');
      }
    }
    expect(withNews).toBeGreaterThan(50);
  });

  it('a bad-news event that fulfils an event question still pushes it toward YES', () => {
    const scandal: TWorldEvent = { ...event, kind: 'scandal', impact: -0.06, directions: { 1: 'YES' } };
    for (let i = 0; i < 100; i++) {
      for (const t of planNpcActivity(world({ holdings: [] }), [scandal], createRng(`s${i}`)).trades) {
        if (t.kind === 'buy' && t.marketId === 'm1') expect(t.outcome).toBe('YES');
      }
    }
  });

  it('an actor touched by the news posts about it', () => {
    const w = world({ acting: [actor(0, 'S')] });
    // Most ticks (a post is about its own news with chance 0.8; the feed's budget caps the posts).
    let about = 0;
    for (let i = 0; i < 40; i++) {
      const plan = planNpcActivity(w, [event], createRng(`self-${i}`));
      if (plan.posts.some((p) => p.topic === 'event' && p.content.includes('Nexa Dynamics unveils v5'))) about++;
    }
    expect(about).toBeGreaterThanOrEqual(30);
  });

  it('property: one tick never posts the same words twice, even from actors of one voice on one story', () => {
    // Six analysts and the same news: the phrase banks are small, so equal draws are likely.
    const analysts = Array.from({ length: 6 }, (_, i) => ({ ...actor(2 * i + 1, 'S'), orgTicker: null, orgName: null }));
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const plan = planNpcActivity(world({ acting: analysts }), [event], createRng(seed));
        expect(new Set(plan.posts.map((p) => p.content)).size).toBe(plan.posts.length);
      }),
      { numRuns: 200 },
    );
  });

  it('plans nothing without actors', () => {
    const plan = planNpcActivity(world({ acting: [] }), [event], createRng('x'));
    expect([plan.posts, plan.replies, plan.likes, plan.shares, plan.trades].every((l) => l.length === 0)).toBe(true);
  });
});

describe('NPC perps', () => {
  const tickers: TNpcTicker[] = [
    { ticker: 'NEXA', markPrice: 150, indexPrice: 150, oiLong: 40_000, oiShort: 2_000 },
    { ticker: 'SOLR', markPrice: 31, indexPrice: 31, oiLong: 0, oiShort: 0 },
  ];
  const held = [
    { id: 'pos-1', userId: 'actor-0', ticker: 'NEXA', side: 'long' as const, size: 900, leverage: 3 },
    { id: 'pos-2', userId: 'actor-1', ticker: 'SOLR', side: 'short' as const, size: 300, leverage: 2 },
  ];

  it('leans against the heavier side and the premium', () => {
    const flat = { ticker: 'X', markPrice: 100, indexPrice: 100, oiLong: 0, oiShort: 0 };
    expect(longChance(flat, 0)).toBe(0.5);
    expect(longChance({ ...flat, oiLong: 50_000 }, 0)).toBeLessThan(0.2);
    expect(longChance({ ...flat, oiShort: 50_000 }, 0)).toBeGreaterThan(0.8);
    expect(longChance({ ...flat, markPrice: 101 }, 0)).toBeLessThan(0.5);
    expect(longChance(flat, 0.05)).toBeGreaterThan(0.5);
    expect(imbalanceOf({ oiLong: 0, oiShort: 0 })).toBe(0);
  });

  it('property: more long interest never makes a long more likely', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.double({ min: 0, max: 1e6, noNaN: true }), fc.double({ min: 0, max: 1e6, noNaN: true }), (l, s, more) => {
        const t = { ticker: 'X', markPrice: 100, indexPrice: 100, oiLong: l, oiShort: s };
        expect(longChance({ ...t, oiLong: l + more }, 0)).toBeLessThanOrEqual(longChance(t, 0) + 1e-12);
      }),
    );
  });

  it('opens within balance and tier leverage, one per actor, closes only its own, and announces with the right words', () => {
    let opens = 0;
    let closes = 0;
    let nexaOpens = 0;
    let nexaLongs = 0;
    for (let i = 0; i < 200; i++) {
      const w = world({ holdings: [], perps: held, tickers });
      const plan = planNpcActivity(w, [], createRng(`perp${i}`));
      const spent = new Map<string, number>();
      for (const t of plan.trades) if (t.kind === 'buy') spent.set(t.actorId, (spent.get(t.actorId) ?? 0) + Number(t.amount));
      const openers = new Set<string>();
      for (const t of plan.perpTrades) {
        const a = w.acting.find((x) => x.id === t.actorId)!;
        if (t.kind === 'open') {
          opens++;
          if (t.ticker === 'NEXA') nexaOpens++;
          if (t.ticker === 'NEXA' && t.side === 'long') nexaLongs++;
          expect(openers.has(t.actorId)).toBe(false);
          openers.add(t.actorId);
          const [lo, hi] = PERP_LEVERAGE[a.tier];
          expect(t.leverage).toBeGreaterThanOrEqual(lo);
          expect(t.leverage).toBeLessThanOrEqual(hi);
          expect(Number(t.size)).toBeGreaterThanOrEqual(PERP_SIZE.min);
          expect(Number(t.size)).toBeLessThanOrEqual(PERP_SIZE.max);
          spent.set(t.actorId, (spent.get(t.actorId) ?? 0) + Number(t.size) / t.leverage + Number(t.size) * 0.001);
          if (t.post) expect(t.post).toContain(`Opened a ${t.leverage}x ${t.side} on $${t.ticker}`);
        } else {
          closes++;
          expect(held.find((p) => p.id === t.positionId)?.userId).toBe(t.actorId);
          if (t.post) expect(t.post).toContain(`Closed my ${t.leverage}x ${t.side} on $${t.ticker}`);
        }
      }
      for (const [id, v] of spent) expect(v).toBeLessThanOrEqual(Number(w.acting.find((a) => a.id === id)!.balance) + 1e-9);
    }
    expect(opens).toBeGreaterThan(40);
    expect(closes).toBeGreaterThan(10);
    // NEXA is long-heavy: new NEXA positions are mostly shorts.
    expect(nexaOpens).toBeGreaterThan(20);
    expect(nexaLongs).toBeLessThan(nexaOpens * 0.35);
  });
});
