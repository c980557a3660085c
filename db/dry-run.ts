/**
 * Dry runs (CONTRACT "Orders": `dryRun: true` answers what a call would do now and changes
 * nothing). `runDryRun(fn)` runs the real service inside ONE request transaction (./client.ts
 * withRequestTransaction: every getDb, withTransaction and executePrepared of fn joins it) and
 * always rolls it back, answering what fn answered, or throwing what it threw. So a preview is the
 * real call's arithmetic, locks and checks, not a second implementation that could drift from it:
 *   - every row fn writes (trades, positions, ledger rows, balances, reserves, price points,
 *     notifications, pool lots) vanishes with the rollback;
 *   - the outbox rows and their NOTIFY (lib/events/outbox) vanish too: PostgreSQL delivers a
 *     NOTIFY only at commit, and the realtime reader reads committed rows only, so no SSE frame,
 *     no in-process bus event;
 *   - what a service does "after its commit" (the liquidation sweep after a perp trade, the sweep
 *     after a withdrawal raised cash) runs inside the same transaction, and vanishes with it.
 * What a rollback cannot undo: sequence values (bigserial ids) are consumed, and locks are held
 * as long as the real call would hold them. fn must not reach the database by any other way
 * than this module (getRootDb, its own client), nor keep in-process state of what it wrote:
 * no write service does today.
 *
 * Called inside a request transaction already (an idempotent request's, lib/idempotency), the dry
 * run is a savepoint of it, rolled back; the enclosing transaction goes on. Never call it inside
 * a plain withTransaction callback (as no service may open another transaction there).
 */
import 'server-only';
import { getDb, getRootDb, withRequestTransaction, withTransaction } from './client';

/** Carries fn's answer out of the transaction it rolls back: private, so nothing else throws one. */
class DryRunAnswer {
  constructor(readonly value: unknown) {}
}

/** Whether this async context runs inside a request transaction (getDb then hands out its tx). */
async function insideRequestTransaction() {
  return (await getDb()) !== (await getRootDb());
}

/** Runs fn in a transaction that is always rolled back; answers fn's value, or throws fn's error. */
export async function runDryRun<T>(fn: () => Promise<T>): Promise<T> {
  const rehearse = async (): Promise<never> => {
    throw new DryRunAnswer(await fn());
  };
  try {
    if (await insideRequestTransaction()) await withTransaction(rehearse);
    else await withRequestTransaction(rehearse);
  } catch (e) {
    if (e instanceof DryRunAnswer) return e.value as T;
    throw e;
  }
  throw new Error('runDryRun: the transaction ended without an answer');
}
