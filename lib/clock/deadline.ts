/**
 * Request deadlines. A request runs inside a deadline scope (AsyncLocalStorage, so every await
 * under it sees the same scope). Once the deadline passes:
 *   - no new statement of the request's writes starts and no transaction of it commits
 *     (db/client.ts asks `assertWithinDeadline` before each; the transaction rolls back), and
 *   - the request is answered 503 DEADLINE_EXCEEDED as soon as none of its writes is in flight.
 * So a 503 always means nothing was kept. A write already sent when the deadline passes is bounded
 * by the database's statement_timeout (lib/http/limits.ts), and the answer waits for it: if it
 * committed and the handler finishes, the client gets the handler's real answer.
 *
 * Outside a request (the game tick, scripts, tests calling services) there is no scope and no
 * deadline: the tick keeps its own budgets.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError } from '@/lib/errors/app-error';

type TScope = {
  expired: boolean;
  /** The handler has finished: later work under this scope (a stream's reads) is not bounded. */
  settled: boolean;
  inflight: number;
  idle: (() => void)[];
};

const storage = new AsyncLocalStorage<TScope>();

const deadlineError = () => new AppError('DEADLINE_EXCEEDED', 'The request took too long and was abandoned; nothing was changed');

/** Throws DEADLINE_EXCEEDED when the current request is past its deadline; no-op outside a request. */
export function assertWithinDeadline() {
  const s = storage.getStore();
  if (s && s.expired && !s.settled) throw deadlineError();
}

/**
 * Runs one write (a statement or a whole transaction) of the current request: refused once the
 * deadline has passed, and counted while in flight so the deadline's answer waits for it.
 */
export async function trackWrite<T>(fn: () => Promise<T>): Promise<T> {
  const s = storage.getStore();
  if (!s) return fn();
  assertWithinDeadline();
  s.inflight++;
  try {
    return await fn();
  } finally {
    if (--s.inflight === 0) for (const wake of s.idle.splice(0)) wake();
  }
}

/**
 * Runs fn under a deadline of `ms`: its result, or DEADLINE_EXCEEDED once the deadline has passed
 * and no write of it is in flight.
 */
export function runWithDeadline<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const scope: TScope = { expired: false, settled: false, inflight: 0, idle: [] };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const work = storage.run(scope, fn).then((v) => {
    // Finished: what still runs under this scope (an event stream's reads) is no longer bounded.
    scope.settled = true;
    return v;
  });
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      scope.expired = true;
      const fail = () => {
        // The handler may have finished with the write it was waiting for: let its answer win.
        setImmediate(() => reject(deadlineError()));
      };
      if (scope.inflight === 0) fail();
      else scope.idle.push(fail);
    }, ms);
    timer.unref?.();
  });
  // A late rejection of the abandoned work is not an unhandled one.
  work.catch(() => {});
  deadline.catch(() => {});
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
