/**
 * Tick step: the self-dealing detector (lib/admin/detector), at most once an hour of game time,
 * so the per-minute tick stays fast: its rules read bounded windows (a day, a week) that an hour
 * barely moves. The last run's game time is kept in memory: after a restart the first tick runs
 * it (a cheap run, and its reports are never filed twice). It files system reports into the admin
 * queue and bans nobody.
 */
import { runSelfDealingDetector } from '@/lib/admin/detector/run';
import type { TTickContext } from '../types';

/** Game time between two runs. */
export const SELF_DEALING_INTERVAL_MS = 3_600_000;

const LAST_RUN = Symbol.for('playmoney.selfDealingLastRun');
type TGlobal = typeof globalThis & { [LAST_RUN]?: number };

/** `cost`: the rows the run read (lib/admin/detector run.ts): the new trades and what they touch. */
export type TSelfDealingStepResult = { ran: boolean; findings: number; filed: number; cost?: number };

/** Forgets the last run (tests), so the next tick runs the detector. */
export function resetSelfDealingSchedule() {
  (globalThis as TGlobal)[LAST_RUN] = undefined;
}

export async function runSelfDealingStep(ctx: TTickContext): Promise<TSelfDealingStepResult> {
  const g = globalThis as TGlobal;
  const last = g[LAST_RUN];
  const t = ctx.at.getTime();
  // Game time never moves backwards, but a test may reset the clock: a time before the last run runs again.
  if ((last !== undefined && t >= last && t - last < SELF_DEALING_INTERVAL_MS) || performance.now() > ctx.deadline) {
    return { ran: false, findings: 0, filed: 0, cost: 0 };
  }
  // Recorded before running: a failing run waits for the next hour rather than retrying every minute.
  g[LAST_RUN] = t;
  const { findings, filed, cost } = await runSelfDealingDetector({ at: ctx.at });
  return { ran: true, findings, filed, cost: cost ?? 0 };
}
