/**
 * Delivers A2A push notifications from the outbox (outbox.ts): each pending delivery POSTed as
 * JSON (an A2A 1.0 StreamResponse: `{task}` or `{statusUpdate}`) to its config's URL with
 *
 * - `X-A2A-Notification-Token`: the config's token, when it has one (A2A's way for the receiver to
 *   know the notification is for it), and `Authorization: <scheme> <credentials>` when the config
 *   carries `authentication`;
 * - `X-Playmoney-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed by the
 *   config's secret (answered once, as `signingSecret`, by CreateTaskPushNotificationConfig): the
 *   receiver recomputes it over the raw body and rejects an old `t`.
 *
 * A 2xx is delivered; anything else (a timeout after PUSH_TIMEOUT_MS, a redirect, a refused
 * address) is retried with exponential backoff (1 s, 2 s, 4 s, …) up to MAX_ATTEMPTS, then failed.
 * A delivery is claimed by moving its next attempt before it is sent, so two workers never send it
 * twice at once. `deliverPendingPushes({ now, limit })` is what the game tick calls every minute;
 * an enqueue also kicks it here at once (bounded: one run at a time per process, a few rounds for
 * the short retries).
 */
import 'server-only';
import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { and, asc, eq, lte, min, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { a2aPushConfigs, a2aPushDeliveries } from '@/db/schema';
import { now as clockNow } from '@/lib/clock/clock';
import { env } from '@/lib/env';
import { pushKicksOn, setPushKick } from './outbox';
import { checkPushUrl, isInternalAddress } from './url';

export const MAX_ATTEMPTS = 6;
export const PUSH_TIMEOUT_MS = 5000;
export const SIGNATURE_HEADER = 'X-Playmoney-Signature';
export const TOKEN_HEADER = 'X-A2A-Notification-Token';

/** The wait after the n-th failed attempt (1-based): 1 s, 2 s, 4 s, … */
export function backoffMs(attempt: number): number {
  return 1000 * 2 ** Math.max(0, attempt - 1);
}

/** The X-Playmoney-Signature value of a body sent at `t` (unix seconds). */
export function signPush(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** One POST; throws what went wrong. */
async function post(url: string, headers: Record<string, string>, body: string) {
  const target = checkPushUrl(url, { production: env().isProduction });
  if (env().isProduction) {
    // The name again, as it resolves now: never an internal address (a name can be re-pointed).
    const addresses = await lookup(target.hostname, { all: true });
    if (!addresses.length || addresses.some((a) => isInternalAddress(a.address))) throw new Error('the host resolves to an internal address');
  }
  const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, redirect: 'manual', signal: AbortSignal.timeout(PUSH_TIMEOUT_MS) });
  await res.body?.cancel().catch(() => undefined);
  if (res.status < 200 || res.status >= 300) throw new Error(`HTTP ${res.status}`);
}

/**
 * Sends the deliveries due at `now` (at most `limit`), each once: delivered on a 2xx, retried
 * later otherwise, failed after MAX_ATTEMPTS. Returns how many were sent, retried and failed.
 */
export async function deliverPendingPushes(opts: { now?: Date; limit?: number } = {}) {
  const at = opts.now ?? clockNow();
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 500);
  const db = await getDb();
  const due = await db
    .select({ id: a2aPushDeliveries.id, attempts: a2aPushDeliveries.attempts, body: a2aPushDeliveries.body, url: a2aPushConfigs.url, token: a2aPushConfigs.token, authentication: a2aPushConfigs.authentication, secret: a2aPushConfigs.secret })
    .from(a2aPushDeliveries)
    .innerJoin(a2aPushConfigs, eq(a2aPushDeliveries.configId, a2aPushConfigs.id))
    .where(and(eq(a2aPushDeliveries.status, 'pending'), lte(a2aPushDeliveries.nextAttemptAt, at)))
    .orderBy(asc(a2aPushDeliveries.nextAttemptAt))
    .limit(limit);
  const tally = { delivered: 0, retried: 0, failed: 0 };
  await Promise.all(
    due.map(async (d) => {
      const attempt = d.attempts + 1;
      // Claim it: the next attempt moves first, so a second worker skips it.
      const [claimed] = await db
        .update(a2aPushDeliveries)
        .set({ attempts: attempt, nextAttemptAt: new Date(at.getTime() + backoffMs(attempt)) })
        .where(and(eq(a2aPushDeliveries.id, d.id), eq(a2aPushDeliveries.attempts, d.attempts), eq(a2aPushDeliveries.status, 'pending')))
        .returning({ id: a2aPushDeliveries.id });
      if (!claimed) return;
      const headers: Record<string, string> = { [SIGNATURE_HEADER]: signPush(d.secret, Math.floor(Date.now() / 1000), d.body) };
      if (d.token) headers[TOKEN_HEADER] = d.token;
      if (d.authentication?.scheme) headers.authorization = `${d.authentication.scheme} ${d.authentication.credentials ?? ''}`.trim();
      try {
        await post(d.url, headers, d.body);
        await db.update(a2aPushDeliveries).set({ status: 'delivered', finishedAt: at, lastError: null }).where(eq(a2aPushDeliveries.id, d.id));
        tally.delivered++;
      } catch (e) {
        const why = (e instanceof Error ? e.message : String(e)).slice(0, 300);
        const done = attempt >= MAX_ATTEMPTS;
        await db
          .update(a2aPushDeliveries)
          .set(done ? { status: 'failed', finishedAt: at, lastError: why } : { lastError: why })
          .where(eq(a2aPushDeliveries.id, d.id));
        if (done) tally.failed++;
        else tally.retried++;
      }
    }),
  );
  return tally;
}

// ---- The kick after an enqueue: bounded, one run at a time per process ----

const KICK_LIMIT = 20;
const KICK_ROUNDS = 6;
/** Retries due later than this are left to the tick. */
const KICK_HORIZON_MS = 20_000;

let running = false;
let again = false;
let inFlight: Promise<void> = Promise.resolve();

async function kickRun() {
  if (running) {
    again = true;
    return;
  }
  running = true;
  inFlight = runRounds();
  return inFlight;
}

async function runRounds() {
  try {
    for (let round = 0; round < KICK_ROUNDS && pushKicksOn(); round++) {
      again = false;
      await deliverPendingPushes({ limit: KICK_LIMIT });
      if (again) continue;
      const db = await getDb();
      const [{ next } = { next: null }] = await db
        .select({ next: min(a2aPushDeliveries.nextAttemptAt) })
        .from(a2aPushDeliveries)
        .where(sql`${a2aPushDeliveries.status} = 'pending'`);
      if (!next) break;
      const wait = new Date(next).getTime() - clockNow().getTime();
      if (wait > KICK_HORIZON_MS) break;
      // In slices, so that kicks turned off (a closing process) end the wait soon.
      for (let left = Math.max(wait, 50); left > 0 && pushKicksOn(); left -= 250) await new Promise((r) => setTimeout(r, Math.min(left, 250)).unref?.());
    }
  } catch (e) {
    console.error('[a2a] push delivery run failed:', e);
  } finally {
    running = false;
  }
}

/** Runs the deliveries now, in the background (the tick retries whatever this misses). */
export function kickPushDeliveries() {
  void kickRun();
}

setPushKick(kickPushDeliveries, () => inFlight);
