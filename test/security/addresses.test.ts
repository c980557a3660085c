/**
 * Spoofed forwarding headers (issue 29, items 6 and 12), against a production server on each
 * database with TRUST_PROXY=1: one trusted proxy appends the address it saw to X-Forwarded-For,
 * so the client is the right-most entry, whatever the client wrote to the left of it; X-Real-IP is
 * never trusted. Shown with the anonymous rate limits: requests that differ only in the entries a
 * client controls share one counter (X-RateLimit-Remaining counts down across them), and a
 * small limit (agent sign-in, 10 a minute) cannot be dodged by inventing left-most addresses.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '@/lib/contracts/rate-limits';
import { callRaw, targets, type TTarget } from './harness';

/**
 * The in-process limiter is a sliding window over fixed minutes: across a minute boundary the
 * previous minute's count is weighted (and rounded down), so exact counts hold only inside one
 * minute. A test that counts starts early enough in a minute to finish in it (a few requests take
 * well under a second); this waits, it asserts nothing about time.
 */
const startEarlyInAMinute = async () => {
  const into = Date.now() % 60_000;
  if (into > 50_000) await sleep(60_000 - into + 100);
};

let next = 0;
/** An address no other test uses (TEST-NET-3), as the trusted proxy reports the client. */
const realAddress = () => `203.0.113.${(next++ % 250) + 1}`;

/** An anonymous public read with the given forwarding headers: its remaining count. */
const remainingAfter = async (t: TTarget, headers: Record<string, string>) => {
  const res = await callRaw(t, '/api/onboarding/check-username?username=someone', { method: 'GET', headers });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Number(res.headers.get('x-ratelimit-remaining'));
};

describe.each(targets())('spoofed forwarding headers ($name)', (t) => {
  it('counts "1.2.3.4, <real>" as <real>: varying the left-most entry shares one counter', async () => {
    await startEarlyInAMinute();
    const real = realAddress();
    const first = await remainingAfter(t, { 'x-forwarded-for': `1.2.3.4, ${real}` });
    expect(first).toBe(RATE_LIMITS.public.limit - 1);
    expect(await remainingAfter(t, { 'x-forwarded-for': `5.6.7.8, ${real}` })).toBe(first - 1);
    expect(await remainingAfter(t, { 'x-forwarded-for': `9.9.9.9,10.0.0.1 , ${real}` })).toBe(first - 2);
    expect(await remainingAfter(t, { 'x-forwarded-for': real })).toBe(first - 3);
    // Another client behind the same proxy has a counter of its own.
    expect(await remainingAfter(t, { 'x-forwarded-for': `1.2.3.4, ${realAddress()}` })).toBe(RATE_LIMITS.public.limit - 1);
  });

  it('ignores X-Real-IP: a client cannot pick its identity with it', async () => {
    await startEarlyInAMinute();
    const real = realAddress();
    const first = await remainingAfter(t, { 'x-forwarded-for': real, 'x-real-ip': '192.0.2.1' });
    expect(await remainingAfter(t, { 'x-forwarded-for': real, 'x-real-ip': '192.0.2.2' })).toBe(first - 1);
    expect(await remainingAfter(t, { 'x-forwarded-for': real })).toBe(first - 2);
  });

  it('does not let the agent sign-in limit be dodged by inventing left-most addresses', async () => {
    const { limit } = RATE_LIMITS.agentAuth;
    await startEarlyInAMinute();
    const real = realAddress();
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) {
      const res = await callRaw(t, '/api/agents/auth', {
        body: JSON.stringify({ agentId: 'nobody', agentSecret: 'guess' }),
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${i}.0.1, ${real}`, 'x-real-ip': `10.${i}.0.2` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(limit).fill(401), 429]);
  });
});
