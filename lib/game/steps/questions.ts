/**
 * Tick step: questions. Event questions an earlier tick's world event fulfilled resolve YES at
 * once (the next tick after the news), and due questions (resolution date reached) resolve through the
 * same idempotent resolveMarket as the admin endpoint, with the outcome from the world: a price
 * rule reads the organization's price (never the question's own market), an event rule resolves
 * by the outcome drawn when it was asked (its news followed that draw; a rule from before draws
 * looks for a fulfilling world event in its window), and a question without a rule follows its
 * market price. Then the game tops the active questions up to between 10 and 20, each made from
 * the world's state with the rule it will resolve by and the odds and draw it is born with
 * (lib/game/outcomes.ts), never two event questions one event could settle.
 */
import { sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction, type Tx } from '@/db/client';
import { markets, organizations, questionRules, worldEvents } from '@/db/schema';
import { prices, toPool } from '@/lib/markets/cpmm';
import { createMarket } from '@/lib/markets/service/create-market';
import { resolveMarket } from '@/lib/markets/service/resolve-market';
import { loadActors, loadOpenQuestions, loadOrganizations, loadRecentQuestions, toRule, type TRuleColumns } from '../state';
import type { TTickContext } from '../types';
import { GAME_QUESTION_LIQUIDITY } from '../depth';
import { createStoryline } from '../storylines/service';
import { planOutcome, type TQuestionOdds } from '../outcomes';
import { planQuestion, questionsToCreate, resolveOutcome, type TQuestionRule } from '../world-rules';

/** Liquidity of a game question: deep enough that one NPC bet moves it a few points (../depth.ts). */
export { GAME_QUESTION_LIQUIDITY } from '../depth';

/**
 * A game question and the rule that resolves it, with the odds and draw it is born with, in the
 * caller's transaction (never one without the other). The draw stays in question_rules, which no
 * API answer reads.
 */
export async function createRuledQuestion(
  tx: Tx,
  q: { text: string; resolutionDate: Date; rule: TQuestionRule; liquidity: number; at: Date; odds: TQuestionOdds | null },): Promise<string> {
  // It opens at the odds it is born with (world knowledge, not the draw): a new question is no
  // free bet against 50 %.
  const market = await createMarket({ caller: null, text: q.text, resolutionDate: q.resolutionDate, liquidity: q.liquidity, probability: q.odds?.probability, tx });
  const r = q.rule;
  await tx.insert(questionRules).values({
    marketId: market.id,
    kind: r.kind,
    organizationId: r.organizationId,
    ticker: r.kind === 'price' ? r.ticker : null,
    actorId: r.kind === 'event' ? r.actorId : null,
    eventKind: r.kind === 'event' ? r.eventKind : null,
    comparison: r.kind === 'price' ? r.comparison : null,
    threshold: r.kind === 'price' ? String(r.threshold) : null,
    probability: q.odds ? q.odds.probability.toFixed(6) : null,
    drawnOutcome: q.odds?.outcome ?? null,
    eventAt: q.odds?.eventAt ?? null,
    createdAt: q.at,
  });
  await createStoryline(tx, { marketId: market.id, text: q.text, rule: q.rule, odds: q.odds, at: q.at, resolutionDate: q.resolutionDate });
  return market.id;
}
/** Due questions resolved per tick at most; the rest wait for the next tick. */
const MAX_RESOLUTIONS = 50;

type TDueRow = TRuleColumns & {
  id: string;
  yes_shares: string;
  no_shares: string;
  created_at: string | Date;
  resolution_date: string | Date;
  price: string | null;
  drawn_outcome: 'YES' | 'NO' | null;
};

const eventHappened = async (rule: TQuestionRule | null, from: Date, to: Date) => {
  if (rule?.kind !== 'event') return false;
  const db = await getDb();
  const [row] = rowsOf<{ n: number | string }>(
    await db.execute(sql`
      select count(*) as n from ${worldEvents}
      where kind = ${rule.eventKind} and organization_id = ${rule.organizationId}
        ${rule.actorId ? sql`and actor_id = ${rule.actorId}` : sql``}
        and created_at >= ${from.toISOString()}::timestamptz and created_at <= ${to.toISOString()}::timestamptz`),
  );
  return Number(row?.n ?? 0) > 0;
};

/**
 * Open event questions a world event of an earlier tick already fulfilled (after the question was
 * asked, before its date): settled by what happened, they resolve YES at the next tick rather than
 * at their date. Events of this very tick wait for the next one, so the news tick moves the
 * question first (a news trade toward YES) and the next one pays it out. A question drawn NO is
 * never among them (its news never happens, and it resolves by its draw at its date).
 */
const fulfilledQuestions = async (at: Date) => {
  const db = await getDb();
  const ts = sql`${at.toISOString()}::timestamptz`;
  return rowsOf<{ id: string }>(
    await db.execute(sql`
      select m.id from ${markets} m join ${questionRules} r on r.market_id = m.id
      where m.status = 'active' and r.kind = 'event' and m.resolution_date > ${ts}
        and (r.drawn_outcome is null or r.drawn_outcome = 'YES')
        and exists (
          select 1 from ${worldEvents} e
          where e.kind = r.event_kind and e.organization_id = r.organization_id and (r.actor_id is null or e.actor_id = r.actor_id)
            and e.created_at > m.created_at and e.created_at < ${ts} and e.created_at <= m.resolution_date)
      order by m.question_number
      limit ${MAX_RESOLUTIONS}`),
  );
};

export async function resolveDueQuestions(ctx: TTickContext) {
  const db = await getDb();
  let early = 0;
  for (const q of await fulfilledQuestions(ctx.at)) {
    if (performance.now() > ctx.deadline) break;
    const r = await resolveMarket({ marketId: q.id, outcome: 'YES' });
    if (!r.alreadyResolved) early++;
  }
  const due = rowsOf<TDueRow>(
    await db.execute(sql`
      select m.id, m.yes_shares, m.no_shares, m.created_at, m.resolution_date,
        r.kind, r.organization_id, r.ticker, r.actor_id, r.event_kind, r.comparison, r.threshold, r.drawn_outcome, o.current_price as price
      from ${markets} m
        left join ${questionRules} r on r.market_id = m.id
        left join ${organizations} o on o.id = r.organization_id
      where m.status = 'active' and m.resolution_date <= ${ctx.at.toISOString()}::timestamptz
      order by m.resolution_date, m.question_number
      limit ${MAX_RESOLUTIONS}`),
  );
  let resolved = early;
  let yes = early;
  for (const q of due) {
    if (performance.now() > ctx.deadline) break;
    const rule = toRule(q);
    // 0.5 for a pool without weights (createPool never makes one).
    const price = prices(toPool({ yesShares: q.yes_shares, noShares: q.no_shares })).yes;
    const yesPrice = price.isFinite() ? price.toNumber() : 0.5;
    const outcome = resolveOutcome(rule, {
      price: q.price === null ? null : Number(q.price),
      eventHappened: q.drawn_outcome === null && (await eventHappened(rule, new Date(q.created_at), new Date(q.resolution_date))),
      yesPrice,
      drawn: q.drawn_outcome,
    });
    // A price rule without its ticker's price waits (an administrator can resolve it).
    if (outcome === null) continue;
    const r = await resolveMarket({ marketId: q.id, outcome });
    if (!r.alreadyResolved) {
      resolved++;
      if (outcome === 'YES') yes++;
    }
  }
  return { due: due.length + early, resolved, yes };
}

export async function createQuestions(ctx: TTickContext) {
  const db = await getDb();
  const rng = ctx.rng.fork('questions');
  const open = await loadOpenQuestions(db, ctx.at);
  const count = questionsToCreate(rng, open.length);
  if (count === 0) return { active: open.length, created: 0 };
  const orgs = await loadOrganizations(db);
  const actors = await loadActors(db);
  const taken = open.map((q) => q.rule);
  const recent = await loadRecentQuestions(db, ctx.at);
  let created = 0;
  for (let i = 0; i < count; i++) {
    if (performance.now() > ctx.deadline) break;
    const qRng = rng.fork(`question-${i}`);
    const q = planQuestion(qRng, { orgs, actors, at: ctx.at, open: taken, recent });
    if (!q) break;
    const org = orgs.find((o) => o.id === q.rule.organizationId)!;
    // Its own fork: the odds never shift what the question asks.
    const odds = planOutcome(qRng.fork('outcome'), { rule: q.rule, org, createdAt: ctx.at, resolutionDate: q.resolutionDate });
    // The question, its announcements and its rule commit together: no question without its rule.
    await withTransaction((tx) => createRuledQuestion(tx, { ...q, liquidity: GAME_QUESTION_LIQUIDITY, at: ctx.at, odds }));
    taken.push(q.rule);
    recent.push({ rule: q.rule, text: q.text, open: true, createdAt: ctx.at });
    created++;
  }
  return { active: open.length + created, created };
}
