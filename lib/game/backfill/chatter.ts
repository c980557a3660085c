/**
 * The NPCs' chatter of the generated past: the plain posts and the replies the live tick would
 * have written, minute by minute, so the backfilled feed reads like the live one (write.ts alone
 * writes only the trades' announcements).
 *
 *   generateChatter   pure (no I/O, no clock, no Math.random): for every game minute of
 *                     [start, end) it draws, with an rng seeded by `seed` and the minute, the
 *                     live plan's counts (lib/game/npc/plan.ts POSTS_PER_TICK / NEWS_POSTS_PER_TICK
 *                     within npcPostBudget, REPLIES_PER_TICK: imported, so a retuned live world
 *                     retunes its past), speakers among NPC_ACTING_PER_TICK actors picked by tier
 *                     (pickActingActors), topics by the live chooseTopic from the world as the
 *                     history had it then (each question's and ticker's price at the last step at
 *                     or before the minute, the minute's news), words by voice.ts renderPost /
 *                     renderReply. A reply answers one of the 40 newest chatter posts of the
 *                     previous hour by another author, never twice the same author pair within an
 *                     hour (the live rule, lib/comments add-comment).
 *   writeChatter      bulk inserts of the posts, their tags and the comments, in chunks of column
 *                     arrays (a few parameters a statement), with each post's comments_count set to
 *                     its replies. Mentions' notifications and feed events are not written (the
 *                     past is read, not delivered; write.ts's trade posts do the same).
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rowsOf, unnestSql, type Db } from '@/db/client';
import { actors as actorsTable, comments, markets, organizations, posts, postTags, users } from '@/db/schema';
import { parseTags } from '@/lib/posts/text';
import {
  chooseTopic,
  NEWS_POSTS_PER_TICK,
  NPC_ACTING_PER_TICK,
  npcPostBudget,
  pickActingActors,
  POSTS_PER_TICK,
  REPLIES_PER_TICK,
  type TNpcActor,
  type TNpcMarket,
  type TNpcOrg,
  type TNpcWorld,
} from '../npc/plan';
import { renderPost, renderReply } from '../npc/voice';
import { createRng } from '../rng';
import type { TWorldEvent } from '../types';
import type { THistory } from './generate';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** What a reply may answer: the newest posts of the previous hour (the live snapshot keeps 40). */
const REPLY_WINDOW_MS = HOUR;
const RECENT_POSTS = 40;

/** An NPC as its words need it (lib/game/npc/state.ts reads the same columns). */
export type TChatterActor = { id: string; username: string; displayName: string; role: string; tier: TNpcActor['tier']; orgTicker: string | null; orgName: string | null; /** The persona's source with role and tier (lib/game/npc/grammar/persona.ts): the past speaks in the live voice. */ personality?: string };
/** An organization: its ticker's name and sector; its price at each step comes from the history. */
export type TChatterOrg = { id: string; ticker: string; name: string; sector: string; initialPrice: number };

export type TChatterInput = {
  seed: string;
  history: Pick<THistory, 'start' | 'end' | 'events' | 'perpPoints' | 'marketPoints' | 'actions'>;
  actors: readonly TChatterActor[];
  orgs: readonly TChatterOrg[];
  /** The text of the questions that existed before the window (by market id); the history's own come from its `create` actions. */
  questionTexts: ReadonlyMap<string, string>;
  /** Defaults to the history's window. */
  start?: Date;
  end?: Date;
};

/** `relatedQuestion`: a market ref of the history (a seeded id, or `bf-q-<n>` for a question it asked). */
export type TChatterPost = { index: number; authorId: string; content: string; relatedQuestion: string | null; at: Date };
/** `post`: the index of the answered post in `posts` (always an earlier one by another author). */
export type TChatterReply = { authorId: string; post: number; replyToUserId: string; content: string; at: Date };
export type TChatter = { posts: TChatterPost[]; replies: TChatterReply[] };

type TSnapshot = { at: number; orgs: TNpcOrg[]; markets: TNpcMarket[] };

/** The world at each step of the history: tickers at their index, open questions at their price. */
const snapshots = (input: TChatterInput): TSnapshot[] => {
  const texts = new Map(input.questionTexts);
  for (const a of input.history.actions) if (a.kind === 'create') texts.set(a.key, a.text);
  const orgOf = new Map(input.orgs.map((o) => [o.ticker, o]));
  const byTime = new Map<number, TSnapshot>();
  const snap = (at: Date) => {
    const t = at.getTime();
    let s = byTime.get(t);
    if (!s) byTime.set(t, (s = { at: t, orgs: [], markets: [] }));
    return s;
  };
  for (const p of input.history.perpPoints) {
    const o = orgOf.get(p.ticker);
    if (o) snap(p.at).orgs.push({ ticker: o.ticker, name: o.name, sector: o.sector, price: p.index, initialPrice: o.initialPrice });
  }
  for (const p of input.history.marketPoints) {
    const text = texts.get(p.market);
    if (text) snap(p.at).markets.push({ id: p.market, questionNumber: 0, text, yesPrice: Number(p.yesPrice) });
  }
  const out = [...byTime.values()].sort((a, b) => a.at - b.at);
  for (const s of out) {
    s.orgs.sort((a, b) => a.ticker.localeCompare(b.ticker));
    s.markets.sort((a, b) => a.id.localeCompare(b.id));
  }
  return out;
};

/** The history's news by game minute (the live tick's news is its own minute's events). */
const newsByMinute = (input: TChatterInput, orgs: readonly TChatterOrg[]) => {
  const tickerOf = new Map(orgs.map((o) => [o.id, o.ticker]));
  const out = new Map<number, TWorldEvent[]>();
  for (const e of input.history.events) {
    const minute = Math.floor(e.at.getTime() / MINUTE);
    const list = out.get(minute) ?? [];
    list.push({
      id: e.id,
      kind: e.kind,
      title: e.title,
      content: e.content,
      organizationId: e.organizationId,
      ticker: tickerOf.get(e.organizationId) ?? null,
      actorId: e.actorId,
      impact: e.impact,
      relatedQuestions: [],
      createdAt: e.at,
    });
    out.set(minute, list);
  }
  return out;
};

/** The plain posts and replies of every game minute of the window (see the module header). */
export function generateChatter(input: TChatterInput): TChatter {
  const start = input.start ?? input.history.start;
  const end = input.end ?? input.history.end;
  const actors: TNpcActor[] = [...input.actors]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((a) => ({ ...a, personality: '', balance: '0' }));
  const out: TChatter = { posts: [], replies: [] };
  if (!actors.length) return out;
  const steps = snapshots(input);
  const news = newsByMinute(input, input.orgs);
  const allUsernames = actors.map((a) => a.username);
  const usernameOf = new Map(actors.map((a) => [a.id, a.username]));
  const world: TNpcWorld = {
    acting: [],
    allUsernames,
    orgs: [],
    markets: [],
    holdings: [],
    perps: [],
    tickers: [],
    recentPosts: [],
    recentReplyPairs: new Set(),
    liked: new Set(),
    shared: new Set(),
  };
  /** `${author}:${replyTo}` → time of its last reply. */
  const lastReply = new Map<string, number>();
  let step = 0;
  const first = Math.ceil(start.getTime() / MINUTE) * MINUTE;
  for (let t = first; t < end.getTime(); t += MINUTE) {
    while (step + 1 < steps.length && steps[step + 1]!.at <= t) step++;
    const s = steps[step];
    world.orgs = s?.orgs ?? [];
    world.markets = s?.markets ?? [];
    const events = news.get(t / MINUTE) ?? [];
    const rng = createRng(`${input.seed}:backfill:chatter:${t}`);
    const acting = pickActingActors(actors, NPC_ACTING_PER_TICK, rng.fork('acting'));

    // What this minute may answer: chatter of the previous hour, newest first, before this minute.
    const recent: TChatterPost[] = [];
    for (let i = out.posts.length - 1; i >= 0 && recent.length < RECENT_POSTS; i--) {
      const p = out.posts[i]!;
      if (p.at.getTime() <= t - REPLY_WINDOW_MS) break;
      if (p.at.getTime() < t) recent.push(p);
    }

    // Posts: the live count, by the first acting actors, one tick never saying a thing twice.
    const postRng = rng.fork('posts');
    const perTick = events.length ? NEWS_POSTS_PER_TICK : POSTS_PER_TICK;
    const nPosts = Math.min(postRng.int(perTick.min, perTick.max), npcPostBudget(events).npc - 1);
    const said = new Set<string>();
    for (let i = 0; i < nPosts; i++) {
      const a = acting[i % acting.length]!;
      const { topic, relatedQuestion } = chooseTopic(a, world, events, postRng);
      let content = renderPost(a, topic, postRng);
      for (let redraw = 0; redraw < 8 && said.has(content); redraw++) content = renderPost(a, topic, postRng);
      if (said.has(content)) continue;
      said.add(content);
      out.posts.push({ index: out.posts.length, authorId: a.id, content, relatedQuestion, at: new Date(t + postRng.int(0, 29) * 1000) });
    }

    // Replies: the live count and tries, to earlier posts, one per author pair an hour.
    const replyRng = rng.fork('replies');
    const nReplies = replyRng.int(REPLIES_PER_TICK.min, REPLIES_PER_TICK.max);
    let made = 0;
    for (let tries = 0; made < nReplies && tries < nReplies * 4 && recent.length; tries++) {
      const a = replyRng.pick(acting);
      const p = replyRng.pick(recent);
      const pair = `${a.id}:${p.authorId}`;
      const last = lastReply.get(pair);
      if (p.authorId === a.id || (last !== undefined && last > t - REPLY_WINDOW_MS)) continue;
      const at = t + replyRng.int(30, 59) * 1000;
      lastReply.set(pair, at);
      const authorUsername = usernameOf.get(p.authorId) ?? '';
      out.replies.push({ authorId: a.id, post: p.index, replyToUserId: p.authorId, content: renderReply(a, { authorUsername, content: p.content }, replyRng), at: new Date(at) });
      made++;
    }
  }
  return out;
}

/**
 * What generateChatter needs from the database besides the history: the NPCs (not banned, as the
 * live snapshot reads them, lib/game/npc/state.ts), the organizations and the questions' texts.
 */
export async function loadChatterWorld(db: Db): Promise<Pick<TChatterInput, 'actors' | 'orgs' | 'questionTexts'>> {
  const npcs = rowsOf<{ id: string; username: string; display_name: string; role: string; personality: string; tier: TNpcActor['tier']; ticker: string | null; org_name: string | null }>(
    await db.execute(sql`
      select u.id, u.username, u.display_name, a.role, a.personality, a.tier, o.ticker, o.name as org_name
      from ${actorsTable} a join ${users} u on u.id = a.user_id left join ${organizations} o on o.id = a.organization_id
      where not u.is_banned
      order by u.id`),
  );
  const orgs = await db.select().from(organizations).orderBy(organizations.ticker);
  const questions = await db.select({ id: markets.id, text: markets.text }).from(markets);
  return {
    actors: npcs.map((a) => ({ id: a.id, username: a.username, displayName: a.display_name, role: a.role, personality: a.personality, tier: a.tier, orgTicker: a.ticker, orgName: a.org_name })),
    orgs: orgs.map((o) => ({ id: o.id, ticker: o.ticker, name: o.name, sector: o.sector, initialPrice: Number(o.initialPrice) })),
    questionTexts: new Map(questions.map((q) => [q.id, q.text])),
  };
}

/** Rows per statement: one array parameter per column, so far below 65,535 parameters. */
const CHUNK = 5000;

/**
 * Writes the chatter: posts (ids made here, so replies can point at them), their tags, the
 * comments, and each answered post's comments_count. `marketIds` maps the history's question keys
 * (`bf-q-<n>`) to the market ids the writer gave them (write.ts runActions); a ref it lacks is
 * taken as a market id, and one naming no market leaves the post without a question (never a
 * broken reference). Returns the counts written.
 */
export async function writeChatter(db: Db, chatter: TChatter, marketIds: ReadonlyMap<string, string> = new Map()): Promise<{ posts: number; replies: number; tags: number }> {
  const ids = chatter.posts.map(() => randomUUID());
  const replies = new Map<number, number>();
  for (const r of chatter.replies) replies.set(r.post, (replies.get(r.post) ?? 0) + 1);
  const tags: { post: string; tag: string; at: string }[] = [];
  for (let i = 0; i < chatter.posts.length; i += CHUNK) {
    const c = chatter.posts.slice(i, i + CHUNK);
    const v = unnestSql('v', {
      id: c.map((_, j) => ids[i + j]!),
      author_id: c.map((p) => p.authorId),
      content: c.map((p) => p.content),
      related_question_id: c.map((p) => (p.relatedQuestion ? (marketIds.get(p.relatedQuestion) ?? p.relatedQuestion) : null)),
      comments_count: c.map((p) => String(replies.get(p.index) ?? 0)),
      at: c.map((p) => p.at.toISOString()),
    });
    await db.execute(sql`
      insert into ${posts} (id, author_id, type, content, related_question_id, comments_count, created_at, updated_at)
      select v.id, v.author_id, 'post', v.content, (select m.id from ${markets} m where m.id = v.related_question_id), v.comments_count::int, v.at::timestamptz, v.at::timestamptz
      from ${v}`);
    c.forEach((p, j) => {
      for (const tag of parseTags(p.content)) tags.push({ post: ids[i + j]!, tag, at: p.at.toISOString() });
    });
  }
  for (let i = 0; i < tags.length; i += CHUNK) {
    const c = tags.slice(i, i + CHUNK);
    const v = unnestSql('v', { post_id: c.map((x) => x.post), tag: c.map((x) => x.tag), at: c.map((x) => x.at) });
    await db.execute(sql`insert into ${postTags} (post_id, tag, created_at) select v.post_id, v.tag, v.at::timestamptz from ${v} on conflict do nothing`);
  }
  for (let i = 0; i < chatter.replies.length; i += CHUNK) {
    const c = chatter.replies.slice(i, i + CHUNK);
    const v = unnestSql('v', {
      post_id: c.map((r) => ids[r.post]!),
      author_id: c.map((r) => r.authorId),
      reply_to: c.map((r) => r.replyToUserId),
      content: c.map((r) => r.content),
      at: c.map((r) => r.at.toISOString()),
    });
    await db.execute(sql`
      insert into ${comments} (id, post_id, author_id, reply_to_user_id, content, created_at, updated_at)
      select gen_random_uuid()::text, v.post_id, v.author_id, v.reply_to, v.content, v.at::timestamptz, v.at::timestamptz
      from ${v}`);
  }
  return { posts: chatter.posts.length, replies: chatter.replies.length, tags: tags.length };
}
