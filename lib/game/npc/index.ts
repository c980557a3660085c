/**
 * NPC activity for one game tick (step 3 of lib/game/tick.ts): NPC actors post in their own
 * voice, reply, like, share, trade prediction markets so that prices move, and open and close
 * perps; a post that reports a trade is written only after that trade succeeded, and names it.
 *
 * How: read a snapshot of the world in a few set-based statements (state.ts), decide everything
 * up front with the tick's rng (plan.ts, pure), then carry the plan out through the same services
 * players use, so counters, tags, mentions, notifications, feed and market events, the ledger and
 * the NPC reply rule all hold. Each action is its own transaction: a refused one (insufficient
 * balance, market closed, reply rule, a block between the NPC and the person it would reach)
 * changes nothing and is skipped. The step stops when performance.now() passes ctx.deadline.
 *
 * Deterministic given ctx.rng and the database state, except for posts rewritten by the optional
 * language model (env().llm), at most LLM_CALLS_PER_TICK per tick.
 */
import { getDb } from '@/db/client';
import { npcCaller } from '@/lib/auth/caller';
import { addComment } from '@/lib/comments/service/add-comment';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { sellShares } from '@/lib/markets/service/sell-shares';
import { closePosition } from '@/lib/perps/service/close-position';
import { openPosition } from '@/lib/perps/service/open-position';
import { createPost } from '@/lib/posts/service/create-post';
import { likePost } from '@/lib/posts/service/like-post';
import { sharePost } from '@/lib/posts/service/share-post';
import { perpTradeLink, predictionTradeLink, type TTradeLink } from '../trade-links';
import type { TNpcActivityResult, TTickContext } from '../types';
import { LLM_CALLS_PER_TICK, LLM_TIMEOUT_MS, writePostWithLlm, type TLlmConfig } from './llm';
import { planNpcActivity, type TNpcPlan } from './plan';
import { loadNpcWorld } from './state';

/** Leave this much of the budget when starting a model call, so a slow answer cannot overrun it. */
const LLM_BUDGET_MARGIN_MS = 500;

/** Runs a service call; an AppError (a refusal: balance, closed market, reply rule, a block (USER_BLOCKED), gone post) is a skip. */
const attempt = async (fn: () => Promise<unknown>): Promise<boolean> => (await attemptFor(fn)) !== undefined;

/** Like attempt, with the call's answer (undefined when refused). */
const attemptFor = async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AppError) return undefined;
    throw e;
  }
};

export type TRunNpcOptions = {
  /** The model service; defaults to env().llm. Tests pass a stubbed fetch instead of the network. */
  llm?: TLlmConfig;
  fetchImpl?: typeof fetch;
};

/** The plan this tick would carry out (exported for tests and debugging; reads only). */
export async function planNpcTick(ctx: TTickContext): Promise<TNpcPlan> {
  const rng = ctx.rng.fork('npc');
  const world = await loadNpcWorld(await getDb(), ctx.at, rng.fork('acting'));
  return planNpcActivity(world, ctx.newEvents, rng.fork('plan'), ctx.minutes);
}

export async function runNpcActivity(ctx: TTickContext, opts: TRunNpcOptions = {}): Promise<TNpcActivityResult> {
  const result: TNpcActivityResult = { posts: 0, replies: 0, likes: 0, shares: 0, trades: 0 };
  const inTime = () => performance.now() < ctx.deadline;
  if (!inTime()) return result;
  const plan = await planNpcTick(ctx);
  const llm = opts.llm ?? env().llm;
  let llmCalls = 0;

  for (const p of plan.posts) {
    if (!inTime()) return result;
    let content = p.content;
    const left = ctx.deadline - performance.now();
    if (llm && llmCalls < LLM_CALLS_PER_TICK && left > LLM_BUDGET_MARGIN_MS * 2) {
      llmCalls++;
      const speaker = plan.speakers.get(p.actorId)!;
      const timeoutMs = Math.min(LLM_TIMEOUT_MS, left - LLM_BUDGET_MARGIN_MS);
      content = (await writePostWithLlm({ llm, speaker, draft: content, timeoutMs, fetchImpl: opts.fetchImpl })).content;
    }
    if (await attempt(() => createPost({ caller: npcCaller({ userId: p.actorId, username: p.username }), content, type: 'post', relatedQuestion: p.relatedQuestion }))) result.posts++;
  }
  // An announcement is written only after its trade succeeded, and names it (trade_kind/trade_id).
  const announce = async (actorId: string, content: string | null, link: TTradeLink | null, relatedQuestion: string | null = null) => {
    if (!content || !link || !inTime()) return;
    const caller = npcCaller({ userId: actorId, username: plan.speakers.get(actorId)!.username });
    if (await attempt(() => createPost({ caller, content, type: 'post', relatedQuestion, trade: link }))) result.posts++;
  };
  // Trades before the lighter social actions: if the budget runs short, prices still move.
  for (const t of plan.trades) {
    if (!inTime()) return result;
    // Traders are among the tick's speakers (plan.ts), which carry the username.
    const caller = npcCaller({ userId: t.actorId, username: plan.speakers.get(t.actorId)!.username });
    const positionId = await attemptFor(async () =>
      t.kind === 'buy'
        ? (await buyShares({ caller, marketId: t.marketId, outcome: t.outcome, amount: t.amount })).positionId
        : (await sellShares({ caller, marketId: t.marketId, outcome: t.outcome, shares: t.shares })).positionId,
    );
    if (positionId === undefined) continue;
    result.trades++;
    if (t.post) await announce(t.actorId, t.post, await predictionTradeLink({ userId: t.actorId, positionId, action: t.kind }), t.marketId);
  }
  // Perps, as a player trades them: open within the balance, close what it holds.
  for (const t of plan.perpTrades) {
    if (!inTime()) return result;
    const caller = npcCaller({ userId: t.actorId, username: plan.speakers.get(t.actorId)!.username });
    const positionId = await attemptFor(async () =>
      t.kind === 'open'
        ? (await openPosition({ caller, ticker: t.ticker, side: t.side, size: t.size, leverage: t.leverage })).position.id
        : (await closePosition({ caller, positionId: t.positionId })).positionId,
    );
    if (positionId === undefined) continue;
    result.trades++;
    if (t.post) await announce(t.actorId, t.post, await perpTradeLink({ positionId, action: t.kind }));
  }
  for (const r of plan.replies) {
    if (!inTime()) return result;
    if (await attempt(() => addComment({ caller: npcCaller({ userId: r.actorId, username: r.username }), postId: r.postId, content: r.content }))) result.replies++;
  }
  for (const l of plan.likes) {
    if (!inTime()) return result;
    if (await attempt(() => likePost({ caller: npcCaller({ userId: l.actorId, username: l.username }), postId: l.postId }))) result.likes++;
  }
  for (const s of plan.shares) {
    if (!inTime()) return result;
    if (await attempt(() => sharePost({ caller: npcCaller({ userId: s.actorId, username: s.username }), postId: s.postId, quote: s.quote ?? null }))) result.shares++;
  }
  return result;
}
