/**
 * Server start (instrumentation.ts): validate the environment (production refuses to start
 * without a token secret or JWKS, or without CRON_SECRET), migrate, seed the world, and run the
 * game tick every minute in-process unless LOCAL_SCHEDULER=0.
 */
import { getDb } from '@/db/client';
import { seedWorld } from '@/lib/world/seed/world';
import { env, EnvError } from '@/lib/env';
import { runGameTick } from '@/lib/system/service';

const KEY = Symbol.for('playmoney.scheduler');
type TGlobal = typeof globalThis & { [KEY]?: NodeJS.Timeout };

export const boot = async () => {
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
  const g = globalThis as TGlobal;
  if (cfg.localScheduler && !g[KEY]) {
    g[KEY] = setInterval(() => {
      runGameTick({}).catch((e) => console.error('[scheduler] game tick failed:', e));
    }, 60_000);
    g[KEY].unref();
  }
};
