/**
 * The world's freshness figures (issue 34, deliverable 6): whether a span of the world reads as a
 * season of stories rather than a loop. Reads only (`readWorldFigures`); the numbers are pure
 * (`worldFigures`) and printed by `formatWorldFigures` (`npm run world-report`, after the priced
 * questions' report) and asserted over 90 simulated days by test/game/exploit.int.test.ts.
 *
 * - NPC posts: distinct 4-grams with numbers masked, and the commonest post shape's share
 *   (lib/game/npc/voice-metrics.ts);
 * - questions: the same text (numbers and dates masked) asked twice within 30 days;
 * - storylines: every game question born and resolved in the span has its storyline published;
 * - prices: each ticker's fair value against its fundamental;
 * - voices: the Brier score of insiders' calls against deceivers' (the calls their storyline beats made).
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { maskQuestion } from './world-rules';
import { commonestShapes, commonestShapeShare, distinctFourGramRatio } from './npc/voice-metrics';

const DAY_MS = 86_400_000;
export { maskQuestion };
/** A question text may not come back within this many days (numbers and dates masked). */
export const REPEAT_WINDOW_DAYS = 30;

export type TWorldFiguresInput = {
  posts: readonly string[];
  questions: readonly { text: string; createdAt: Date }[];
  resolved: { questions: number; storylinesPublished: number };
  tickers: readonly { ticker: string; fairValue: number; fundamental: number }[];
  calls: readonly { role: string; probability: number; outcome: 0 | 1 }[];
};

export type TWorldFigures = {
  posts: number;
  distinctFourGrams: number;
  commonestShape: number;
  /** The three commonest shapes with their counts (what to rewrite first). */
  shapes: { shape: string; count: number }[];
  questions: number;
  /** Pairs of questions with the same masked text asked within REPEAT_WINDOW_DAYS of each other. */
  repeats: { text: string; first: string; second: string }[];
  resolvedQuestions: number;
  storylinesPublished: number;
  tickers: { ticker: string; gap: number }[];
  /** Largest |log(fair / fundamental)| over the tickers. */
  maxGap: number;
  insiders: { calls: number; brier: number };
  deceivers: { calls: number; brier: number };
};

/** Same masked text asked twice within the window (each pair once, in creation order). */
export function repeatedQuestions(questions: readonly { text: string; createdAt: Date }[], windowDays = REPEAT_WINDOW_DAYS) {
  const sorted = [...questions].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const last = new Map<string, Date>();
  const out: { text: string; first: string; second: string }[] = [];
  for (const q of sorted) {
    const key = maskQuestion(q.text);
    const prev = last.get(key);
    if (prev && q.createdAt.getTime() - prev.getTime() < windowDays * DAY_MS) out.push({ text: q.text, first: prev.toISOString(), second: q.createdAt.toISOString() });
    last.set(key, q.createdAt);
  }
  return out;
}

const brier = (xs: readonly { probability: number; outcome: 0 | 1 }[]) => (xs.length ? xs.reduce((s, c) => s + (c.probability - c.outcome) ** 2, 0) / xs.length : Number.NaN);

/** The figures (pure). */
export function worldFigures(input: TWorldFiguresInput): TWorldFigures {
  const tickers = input.tickers.map((t) => ({ ticker: t.ticker, gap: Math.abs(Math.log(t.fairValue / t.fundamental)) }));
  const byRole = (role: string) => {
    const xs = input.calls.filter((c) => c.role === role);
    return { calls: xs.length, brier: brier(xs) };
  };
  return {
    posts: input.posts.length,
    distinctFourGrams: distinctFourGramRatio(input.posts),
    commonestShape: commonestShapeShare(input.posts),
    shapes: commonestShapes(input.posts, 3),
    questions: input.questions.length,
    repeats: repeatedQuestions(input.questions),
    resolvedQuestions: input.resolved.questions,
    storylinesPublished: input.resolved.storylinesPublished,
    tickers,
    maxGap: tickers.reduce((m, t) => Math.max(m, t.gap), 0),
    insiders: byRole('insider'),
    deceivers: byRole('deceiver'),
  };
}

/** What the figures are read from, over game time [from, to). */
export async function readWorldFigures(db: DbOrTx, span: { from: Date; to: Date }): Promise<TWorldFiguresInput> {
  const from = sql`${span.from.toISOString()}::timestamptz`;
  const to = sql`${span.to.toISOString()}::timestamptz`;
  const posts = rowsOf<{ content: string }>(
    await db.execute(sql`
      select p.content from posts p join users u on u.id = p.author_id
      where u.is_actor and p.created_at >= ${from} and p.created_at < ${to}
      order by p.created_at, p.id`),
  );
  const questions = rowsOf<{ text: string; created_at: string | Date }>(
    await db.execute(sql`
      select m.text, m.created_at from markets m join question_rules r on r.market_id = m.id
      where m.created_at >= ${from} and m.created_at < ${to} order by m.created_at, m.id`),
  );
  const [resolved] = rowsOf<{ questions: number | string; published: number | string }>(
    await db.execute(sql`
      select count(*) as questions, count(s.published_at) as published
      from markets m join question_rules r on r.market_id = m.id left join storylines s on s.market_id = m.id
      where m.status = 'resolved' and m.created_at >= ${from} and m.resolved_at < ${to}`),
  );
  const tickers = rowsOf<{ ticker: string; fair: string; fundamental: string }>(
    await db.execute(sql`
      select ticker, coalesce(fair_value, current_price)::text as fair,
        coalesce(fundamental_value, fair_value, current_price)::text as fundamental
      from organizations order by ticker`),
  );
  // Each beat's call by its role in the story, over the questions resolved in the span.
  const calls = rowsOf<{ role: string; probability: string; outcome: string }>(
    await db.execute(sql`
      select b.role, c.probability::text as probability, m.resolved_outcome as outcome
      from npc_calls c join storyline_beats b on b.id = c.beat_id join markets m on m.id = c.market_id
      where m.status = 'resolved' and m.resolved_outcome is not null and m.resolved_at >= ${from} and m.resolved_at < ${to}
        and b.role in ('insider', 'deceiver')`),
  );
  return {
    posts: posts.map((p) => p.content),
    questions: questions.map((q) => ({ text: q.text, createdAt: new Date(q.created_at) })),
    resolved: { questions: Number(resolved?.questions ?? 0), storylinesPublished: Number(resolved?.published ?? 0) },
    tickers: tickers.map((t) => ({ ticker: t.ticker, fairValue: Number(t.fair), fundamental: Number(t.fundamental) })),
    calls: calls.map((c) => ({ role: c.role, probability: Number(c.probability), outcome: c.outcome === 'YES' ? 1 : 0 })),
  };
}

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '—');
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');

/** The figures as text, each beside the bar it is held to. */
export function formatWorldFigures(w: TWorldFigures) {
  return [
    `NPC posts: ${w.posts} · distinct 4-grams (numbers masked) ${pct(w.distinctFourGrams)} (≥ 50%) · commonest shape ${pct(w.commonestShape)} (< 1%)`,
    `  commonest shapes: ${w.shapes.map((s) => `${s.count}× "${s.shape.slice(0, 80)}"`).join(' · ')}`,
    `Questions: ${w.questions} · asked again within ${REPEAT_WINDOW_DAYS} days (numbers masked): ${w.repeats.length} (0)${w.repeats.length ? ` e.g. "${w.repeats[0]!.text}"` : ''}`,
    `Resolved game questions: ${w.resolvedQuestions} · storylines published ${w.storylinesPublished} (all)`,
    `Tickers against their fundamental: largest gap ${pct(Math.expm1(w.maxGap))} · ${w.tickers.map((t) => `${t.ticker} ${pct(Math.expm1(t.gap))}`).join(', ')}`,
    `Calls on resolved questions: insiders ${w.insiders.calls} (Brier ${f3(w.insiders.brier)}) · deceivers ${w.deceivers.calls} (Brier ${f3(w.deceivers.brier)}) (insiders lower)`,
  ].join('\n');
}
