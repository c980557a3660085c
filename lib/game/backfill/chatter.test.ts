/**
 * The past's NPC chatter (chatter.ts generateChatter): deterministic for a seed, as dense minute by
 * minute as the live plan's constants make the tick (lib/game/npc/plan.ts), replies only to
 * earlier posts by someone else and at most once per author pair an hour, every post within the
 * post limit, and fast enough for 30 days at boot.
 */
import { describe, expect, it } from 'vitest';
import { COMMENT_MIN_CHARS, POST_MAX_CHARS, visibleLength } from '@/lib/posts/text';
import { actorId } from '@/lib/world/seed/world';
import { ACTORS, ORGANIZATIONS, QUESTIONS } from '@/lib/world/seed/world-data';
import { NEWS_POSTS_PER_TICK, npcPostBudget, POSTS_PER_TICK, REPLIES_PER_TICK } from '../npc/plan';
import { generateChatter, type TChatterActor, type TChatterInput, type TChatterOrg } from './chatter';
import { generateHistory, type TBackfillWorld, type THistory } from './generate';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const END = new Date('2030-01-15T10:17:00.000Z');

const world: TBackfillWorld = {
  orgs: ORGANIZATIONS.map((o) => ({ id: o.id, name: o.name, ticker: o.ticker, price: Number(o.price), volatility: Number(o.volatility) })),
  actors: ACTORS.map((a) => ({ id: actorId(a.slug), name: a.name, organizationId: a.org, cash: 10_000 })),
  markets: QUESTIONS.map((q) => ({
    id: q.id,
    yesShares: q.yes,
    noShares: q.no,
    resolutionDate: new Date(END.getTime() + q.days * DAY),
    rule: q.price ? { kind: 'price' as const, organizationId: q.price.org, ticker: q.price.ticker, comparison: q.price.comparison, threshold: q.price.threshold } : null,
  })),
  pools: [],
};
const orgs: TChatterOrg[] = ORGANIZATIONS.map((o) => ({ id: o.id, ticker: o.ticker, name: o.name, sector: o.sector, initialPrice: Number(o.price) }));
const actors: TChatterActor[] = ACTORS.map((a) => {
  const org = ORGANIZATIONS.find((o) => o.id === a.org);
  return { id: actorId(a.slug), username: a.slug, displayName: a.name, role: a.role, tier: a.tier as TChatterActor['tier'], orgTicker: org?.ticker ?? null, orgName: org?.name ?? null };
});
const questionTexts = new Map(QUESTIONS.map((q) => [q.id, q.text]));

const histories = new Map<number, THistory>();
const historyOf = (days: number) => {
  if (!histories.has(days)) histories.set(days, generateHistory({ seed: 'playmoney', end: END, days, stepMinutes: 60, world }));
  return histories.get(days)!;
};
const input = (seed: string, days: number): TChatterInput => ({ seed, history: historyOf(days), actors, orgs, questionTexts });

/** The live plan's mean count per tick: a uniform integer draw, capped by the step's budget less one (room for a trade post). */
const meanOf = (range: { min: number; max: number }, cap = Infinity) => {
  let s = 0;
  for (let k = range.min; k <= range.max; k++) s += Math.min(k, cap);
  return s / (range.max - range.min + 1);
};
const QUIET_POSTS = meanOf(POSTS_PER_TICK, npcPostBudget([]).npc - 1);
const NEWS_POSTS = meanOf(NEWS_POSTS_PER_TICK, npcPostBudget([{}]).npc - 1);
const REPLIES = meanOf(REPLIES_PER_TICK);

// Timeouts: CPU-bound generation of whole months takes seconds on an idle machine and a minute or
// more on a loaded one (CI's two cores under the suite's two workers); the benchmark times it.
describe('generateChatter', { timeout: 240_000 }, () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = generateChatter(input('s1', 2));
    const b = generateChatter(input('s1', 2));
    const c = generateChatter(input('s2', 2));
    expect(b).toEqual(a);
    expect(c.posts.map((p) => p.content)).not.toEqual(a.posts.map((p) => p.content));
  });

  it('posts and replies each day within 20% of what the live plan constants give per minute', () => {
    const h = historyOf(7);
    const chatter = generateChatter(input('density', 7));
    const newsMinutes = new Set(h.events.map((e) => Math.floor(e.at.getTime() / 60_000)));
    for (let d = 0; d < 7; d++) {
      const from = h.start.getTime() + d * DAY;
      const to = from + DAY;
      const news = [...newsMinutes].filter((m) => m * 60_000 >= from && m * 60_000 < to).length;
      const expectedPosts = (1440 - news) * QUIET_POSTS + news * NEWS_POSTS;
      const expectedReplies = 1440 * REPLIES;
      const posts = chatter.posts.filter((p) => p.at.getTime() >= from && p.at.getTime() < to).length;
      const replies = chatter.replies.filter((r) => r.at.getTime() >= from && r.at.getTime() < to).length;
      expect(Math.abs(posts - expectedPosts) / expectedPosts, `day ${d}: ${posts} posts, expected ${expectedPosts}`).toBeLessThan(0.2);
      expect(Math.abs(replies - expectedReplies) / expectedReplies, `day ${d}: ${replies} replies, expected ${expectedReplies}`).toBeLessThan(0.2);
    }
    // Every post and reply inside the window.
    for (const x of [...chatter.posts, ...chatter.replies]) {
      expect(x.at.getTime()).toBeGreaterThanOrEqual(h.start.getTime());
      expect(x.at.getTime()).toBeLessThan(h.end.getTime());
    }
  });

  it('replies answer an earlier post of the previous hour by someone else, one author pair an hour at most', () => {
    const { posts, replies } = generateChatter(input('replies', 3));
    expect(replies.length).toBeGreaterThan(1000);
    const last = new Map<string, number>();
    for (const r of replies) {
      const p = posts[r.post]!;
      expect(r.authorId).not.toBe(p.authorId);
      expect(r.replyToUserId).toBe(p.authorId);
      expect(p.at.getTime()).toBeLessThan(r.at.getTime());
      expect(r.at.getTime() - p.at.getTime()).toBeLessThanOrEqual(HOUR + 60_000);
      const pair = `${r.authorId}:${r.replyToUserId}`;
      const before = last.get(pair);
      if (before !== undefined) expect(r.at.getTime() - before, pair).toBeGreaterThanOrEqual(HOUR);
      last.set(pair, r.at.getTime());
      expect(visibleLength(r.content)).toBeGreaterThanOrEqual(COMMENT_MIN_CHARS);
    }
  });

  it('every post is 1 to POST_MAX_CHARS visible characters, by a known actor, about a known question', () => {
    const h = historyOf(3);
    const { posts } = generateChatter(input('length', 3));
    const ids = new Set(actors.map((a) => a.id));
    const refs = new Set(h.marketPoints.map((p) => p.market));
    for (const p of posts) {
      const n = visibleLength(p.content);
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(POST_MAX_CHARS);
      expect(ids.has(p.authorId)).toBe(true);
      if (p.relatedQuestion) expect(refs.has(p.relatedQuestion)).toBe(true);
    }
    // Topics as live: questions, tickers and the news all appear.
    expect(posts.some((p) => p.relatedQuestion)).toBe(true);
    expect(posts.some((p) => /since listing/.test(p.content))).toBe(true);
    const titles = h.events.map((e) => e.title.slice(0, 30));
    expect(posts.some((p) => titles.some((t) => p.content.includes(t)))).toBe(true);
  });

  it('states the price a question had at the time of the post', () => {
    const h = historyOf(3);
    const { posts } = generateChatter(input('prices', 3));
    // Question posts (not a holder's: those state their side's price) quote the market's price among their figures.
    const question = posts.filter((p) => p.relatedQuestion && /%/.test(p.content) && !/\b(?:Still holding|Keeping my|My) (?:YES|NO)\b/.test(p.content));
    expect(question.length).toBeGreaterThan(10);
    for (const p of question.slice(0, 50)) {
      const points = h.marketPoints.filter((x) => x.market === p.relatedQuestion && x.at.getTime() <= p.at.getTime());
      const at = points.length ? points[points.length - 1]! : h.marketPoints.find((x) => x.market === p.relatedQuestion)!;
      const stated = [...p.content.matchAll(/(\d+)%/g)].map((m) => Number(m[1]));
      expect(stated).toContain(Math.round(Math.min(0.99, Math.max(0.01, Number(at.yesPrice))) * 100));
    }
  });

  it('renders a month (time printed, counts asserted: speed belongs to the benchmark)', () => {
    const i = input('speed', 30);
    const t = performance.now();
    const { posts, replies } = generateChatter(i);
    console.log(`chatter: 30 days, ${posts.length} posts, ${replies.length} replies in ${Math.round(performance.now() - t)} ms`);
    expect(posts.length).toBeGreaterThan(30 * 1440 * QUIET_POSTS * 0.8);
    expect(replies.length).toBeGreaterThan(0);
  });
});
