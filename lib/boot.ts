/**
 * Server start (instrumentation.ts, awaited by server.mjs before it listens): validate the
 * environment (production exits here, naming the variable, on a missing token secret or JWKS, a
 * JWKS without issuer and audience, or a missing, short or shared SESSION_SECRET, CRON_SECRET or
 * AUTH_JWT_SECRET: lib/env.ts), migrate, seed the world, backfill its
 * past once (lib/game/backfill), and run the game tick every minute in-process unless
 * LOCAL_SCHEDULER=0.
 */
import { getDb } from '@/db/client';
import { seedWorld } from '@/lib/world/seed/world';
import { backfillHistory } from '@/lib/game/backfill/write';
import { env, EnvError } from '@/lib/env';
import { runGameTick } from '@/lib/system/service';

const KEY = Symbol.for('playmoney.scheduler');
type TGlobal = typeof globalThis & { [KEY]?: NodeJS.Timeout };

export async function boot() {
  let cfg;
  try {
    cfg = env();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(`[boot] ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
  const db = await getDb();
  await seedWorld(db);
  // A fresh world opens with 30 days behind it (once per database; lib/game/backfill).
  const past = await backfillHistory(db);
  if (!past.skipped) console.info(`[boot] backfilled ${past.start} → ${past.end} in ${past.ms} ms`);
  const g = globalThis as TGlobal;
  if (cfg.localScheduler && !g[KEY]) {
    g[KEY] = setInterval(() => {
      runGameTick({}).catch((e) => console.error('[scheduler] game tick failed:', e));
    }, 60_000);
    g[KEY].unref();
  }
}
