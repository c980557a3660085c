/**
 * The world report (issue 31, deliverable 8): how well the world's questions were priced, over the
 * resolved ones. Reads only (`readResolvedQuestions`); the numbers come from lib/game/stats.ts
 * (`worldReport`, pure) and `formatWorldReport` prints them. `npm run world-report` runs it against
 * the app's database; the exploit test (test/game/exploit.int.test.ts) prints it after 90 days.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { brierScore, binomialZ, mean, reliability, type TBinomialZ, type TForecast, type TReliabilityBin } from './stats';

const DAY_MS = 86_400_000;

export type TResolvedQuestion = {
  questionNumber: number;
  /** 'price' | 'event' for a game question with a rule; null for one without (seed, admin). */
  kind: string | null;
  outcome: 0 | 1;
  /** P(YES) the question was born with (question_rules.probability); null without one. */
  probability: number | null;
  /** The YES price of the last price point at least a day before resolution; null when it had none (younger than a day). */
  dayBefore: number | null;
};

/** Every resolved question with its born probability and its price a day before it resolved. */
export async function readResolvedQuestions(db: DbOrTx): Promise<TResolvedQuestion[]> {
  const rows = rowsOf<{ question_number: number; kind: string | null; resolved_outcome: string; probability: string | null; day_before: string | null }>(
    await db.execute(sql`
      select m.question_number, r.kind, m.resolved_outcome, r.probability::text as probability,
        (select pp.yes_price::text from market_price_points pp
          where pp.market_id = m.id and pp.created_at <= m.resolved_at - make_interval(secs => ${DAY_MS / 1000})
          order by pp.created_at desc, pp.id desc limit 1) as day_before
      from markets m left join question_rules r on r.market_id = m.id
      where m.status = 'resolved' and m.resolved_outcome is not null and m.resolved_at is not null
      order by m.question_number`),
  );
  return rows.map((r) => ({
    questionNumber: Number(r.question_number),
    kind: r.kind ?? null,
    outcome: r.resolved_outcome === 'YES' ? 1 : 0,
    probability: r.probability === null ? null : Number(r.probability),
    dayBefore: r.day_before === null ? null : Number(r.day_before),
  }));
}

export type TWorldReport = {
  resolved: number;
  yesRate: number;
  /** Over the questions with a born probability. */
  born: { n: number; meanProbability: number; yesRate: number; brier: number; z: TBinomialZ };
  /** Over the questions with a price a day before resolution. */
  dayBefore: { n: number; brier: number; bins: TReliabilityBin[] };
};

/** The report's numbers (pure). */
export function worldReport(qs: readonly TResolvedQuestion[]): TWorldReport {
  const born: TForecast[] = qs.filter((q) => q.probability !== null).map((q) => ({ p: q.probability!, outcome: q.outcome }));
  const before: TForecast[] = qs.filter((q) => q.dayBefore !== null).map((q) => ({ p: q.dayBefore!, outcome: q.outcome }));
  return {
    resolved: qs.length,
    yesRate: mean(qs.map((q) => q.outcome)),
    born: { n: born.length, meanProbability: mean(born.map((f) => f.p)), yesRate: mean(born.map((f) => f.outcome)), brier: brierScore(born), z: binomialZ(born) },
    dayBefore: { n: before.length, brier: brierScore(before), bins: reliability(before, 10) },
  };
}

const f = (x: number, places = 3) => (Number.isFinite(x) ? x.toFixed(places) : '—');
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '—');

/** The report as text (a few lines and the reliability table). */
export function formatWorldReport(r: TWorldReport) {
  const lines = [
    `Resolved questions: ${r.resolved} (YES ${pct(r.yesRate)})`,
    `With a born probability: ${r.born.n} · YES ${r.born.z.yes} vs Σp ${f(r.born.z.expected, 1)} (z ${f(r.born.z.z, 2)}) · YES rate ${pct(r.born.yesRate)} vs mean p ${pct(r.born.meanProbability)} · Brier ${f(r.born.brier)}`,
    `Price a day before resolution: ${r.dayBefore.n} · Brier ${f(r.dayBefore.brier)} (a coin at ½: 0.250)`,
    '',
    'bin          n   mean price   observed YES',
    ...r.dayBefore.bins.map((b) => `${f(b.from, 1)}–${f(b.to, 1)} ${String(b.n).padStart(6)}   ${pct(b.meanForecast).padStart(10)}   ${pct(b.observed).padStart(12)}`),
  ];
  return lines.join('\n');
}
