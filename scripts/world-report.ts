/**
 * npm run world-report — how well the world's resolved questions were priced (lib/game/report.ts)
 * and whether it reads as a season of stories (lib/game/world-figures.ts).
 *
 *   npm run world-report                      the app's database (DATABASE_URL or the embedded
 *                                             data dir), its last 30 days of game time; reads only
 *   npm run world-report -- --days 90         another span, ending at the game clock
 *   npm run world-report -- --simulate --seed S --days 90 [--step-hours 12]
 *                                             a scratch world in memory: the seed world, then the
 *                                             real tick every step-hours for that many days
 */
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { formatWorldReport, readResolvedQuestions, worldReport } from '@/lib/game/report';
import { formatWorldFigures, readWorldFigures, worldFigures } from '@/lib/game/world-figures';
import { runScript } from './run-db-script';

const HOUR = 3_600_000;
const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '30' },
    simulate: { type: 'boolean', default: false },
    seed: { type: 'string' },
    'step-hours': { type: 'string', default: '12' },
  },
});
const days = Number(values.days);
if (!(days > 0)) throw new Error('--days must be a positive number');

async function simulate(seed: string, stepHours: number) {
  process.env.DATA_DIR = 'memory://';
  process.env.GAME_SEED = seed;
  process.env.ALLOW_TEST_CLOCK = '1';
  delete process.env.DATABASE_URL;
  const { resetEnvCache } = await import('@/lib/env');
  const { setFixedTime } = await import('@/lib/clock/clock');
  const { seedWorld } = await import('@/lib/world/seed/world');
  const { runGameTick } = await import('@/lib/game/tick');
  resetEnvCache();
  const start = new Date(Date.UTC(2026, 0, 1));
  setFixedTime(new Date(start.getTime() - HOUR));
  await seedWorld(await getDb());
  const steps = Math.ceil((days * 24) / stepHours);
  for (let i = 0; i <= steps; i++) {
    await runGameTick({ now: new Date(start.getTime() + i * stepHours * HOUR).toISOString() });
    if (i % 20 === 0) console.error(`tick ${i}/${steps}`);
  }
  return { from: start, to: new Date(start.getTime() + steps * stepHours * HOUR + 1) };
}

await runScript(async () => {
  let span: { from: Date; to: Date };
  if (values.simulate) {
    span = await simulate(values.seed ?? 'world-report', Number(values['step-hours']));
  } else {
    const db = await getDb();
    const [clock] = rowsOf<{ at: string | Date | null }>(await db.execute(sql`select max(last_tick_at) as at from game_clock where id = 'main'`));
    const to = new Date(clock?.at ? new Date(clock.at).getTime() + 1 : Date.now());
    span = { from: new Date(to.getTime() - days * 24 * HOUR), to };
  }
  const db = await getDb();
  const priced = formatWorldReport(worldReport(await readResolvedQuestions(db)));
  const figures = formatWorldFigures(worldFigures(await readWorldFigures(db, span)));
  return `${priced}\n\nFrom ${span.from.toISOString()} to ${span.to.toISOString()}:\n${figures}`;
});
