/**
 * Reads of the world's state the tick's steps plan from: organizations with fair value and mark,
 * NPC actors, open questions with their rules. A few set-based queries, in a fixed order, so the
 * pure planners see the same lists for the same database state (determinism).
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { actors, markets, organizations, perpMarkets, questionRules, users } from '@/db/schema';
import { RECENT_QUESTION_DAYS, type TActorState, type TEventKind, type TOpenQuestion, type TOrgState, type TQuestionRule, type TRecentQuestion } from './world-rules';

/** `fundamental`: organizations.fundamental_value, or the fair value (then the price) while it is still null. */
export type TOrgWorldState = TOrgState & { fairValue: number; fundamental: number; volatility: number; markPrice: number | null };

export async function loadOrganizations(db: DbOrTx): Promise<TOrgWorldState[]> {
  const rows = rowsOf<{ id: string; name: string; ticker: string; price: string; fair: string; fundamental: string; volatility: string; mark: string | null }>(
    await db.execute(sql`
      select o.id, o.name, o.ticker, o.current_price as price, coalesce(o.fair_value, o.current_price) as fair,
        coalesce(o.fundamental_value, o.fair_value, o.current_price) as fundamental, o.volatility, m.mark_price as mark
      from ${organizations} o left join ${perpMarkets} m on m.ticker = o.ticker
      order by o.ticker`),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    ticker: r.ticker,
    price: Number(r.price),
    fairValue: Number(r.fair),
    fundamental: Number(r.fundamental),
    volatility: Number(r.volatility),
    markPrice: r.mark === null ? null : Number(r.mark),
  }));
}

export async function loadActors(db: DbOrTx): Promise<TActorState[]> {
  return rowsOf<{ id: string; name: string; org: string | null }>(
    await db.execute(sql`
      select a.user_id as id, coalesce(u.display_name, u.username) as name, a.organization_id as org
      from ${actors} a join ${users} u on u.id = a.user_id
      order by a.user_id`),
  ).map((r) => ({ id: r.id, name: r.name, organizationId: r.org }));
}

export type TRuleColumns = {
  kind: string | null;
  organization_id: string | null;
  ticker: string | null;
  actor_id: string | null;
  event_kind: string | null;
  comparison: string | null;
  threshold: string | null;
};

/** A question_rules row (as raw columns; null when the question has none) as a rule. */
export function toRule(r: TRuleColumns): TQuestionRule | null {
  if (r.kind === 'price' && r.organization_id && r.ticker && r.comparison && r.threshold !== null) {
    return { kind: 'price', organizationId: r.organization_id, ticker: r.ticker, comparison: r.comparison as 'above' | 'below', threshold: Number(r.threshold) };
  }
  if (r.kind === 'event' && r.organization_id && r.event_kind) {
    return { kind: 'event', organizationId: r.organization_id, actorId: r.actor_id, eventKind: r.event_kind as TEventKind };
  }
  return null;
}

/** Active questions still before their resolution date, oldest first. */
export async function loadOpenQuestions(db: DbOrTx, at: Date): Promise<TOpenQuestion[]> {
  return rowsOf<TRuleColumns & { id: string; question_number: number }>(
    await db.execute(sql`
      select m.id, m.question_number, r.kind, r.organization_id, r.ticker, r.actor_id, r.event_kind, r.comparison, r.threshold
      from ${markets} m left join ${questionRules} r on r.market_id = m.id
      where m.status = 'active' and m.resolution_date > ${at.toISOString()}::timestamptz
      order by m.question_number`),
  ).map((r) => ({ marketId: r.id, questionNumber: Number(r.question_number), rule: toRule(r) }));
}

/**
 * Questions a new one must not repeat (world-rules planQuestion `recent`): open ones and those
 * created within RECENT_QUESTION_DAYS of `at`, with their rules and texts, oldest first.
 */
export async function loadRecentQuestions(db: DbOrTx, at: Date): Promise<TRecentQuestion[]> {
  const since = new Date(at.getTime() - RECENT_QUESTION_DAYS * 86_400_000);
  return rowsOf<TRuleColumns & { id: string; text: string; status: string; created_at: string | Date }>(
    await db.execute(sql`
      select m.id, m.text, m.status, m.created_at, r.kind, r.organization_id, r.ticker, r.actor_id, r.event_kind, r.comparison, r.threshold
      from ${markets} m left join ${questionRules} r on r.market_id = m.id
      where m.status = 'active' or m.created_at >= ${since.toISOString()}::timestamptz
      order by m.created_at, m.id`),
  ).map((r) => ({ rule: toRule(r), text: r.text, open: r.status === 'active', createdAt: new Date(r.created_at) }));
}
