/**
 * The short soak, for CI (issue 20, item 5): the same code as `npm run soak` (scripts/soak.ts)
 * with fewer operations and users, so it finishes in about a minute: random concurrent
 * operations across every money path against a production server on a throwaway PostgreSQL
 * database, the tick on the test clock, then the ledger, points and pool invariants on the
 * database. No 5xx, no position closed twice, every invariant holds.
 */
import { expect, it } from 'vitest';
import { formatReport, runSoak, soakOptionsFrom } from '@/scripts/soak';

it('1,500 random concurrent money operations from 50 users: no 5xx, every invariant holds', async () => {
  const options = soakOptionsFrom([], {
    SOAK_OPS: process.env.SOAK_SHORT_OPS ?? '1500',
    SOAK_USERS: process.env.SOAK_SHORT_USERS ?? '50',
    SOAK_CONCURRENCY: '16',
    SOAK_SEED: process.env.SOAK_SEED ?? '20',
    SOAK_PORT: process.env.OPS_PORT_SOAK ?? '3424',
  });
  const lines: string[] = [];
  const report = await runSoak({ ...options, log: (line) => lines.push(line) });
  const text = formatReport(report);
  console.log([...lines, text].join('\n'));
  expect(report.failures, text).toEqual([]);
  expect(report.invariants.length, text).toBeGreaterThanOrEqual(5);
  expect(report.invariants.filter((i) => !i.ok), text).toEqual([]);
  // The run did move money on every path (a soak that only met refusals would prove nothing).
  for (const kind of ['predBuy', 'predSell', 'perpOpen', 'perpClose', 'poolDeposit', 'poolWithdraw', 'npcInvest', 'pointsTransfer', 'a2aPaymentReceipt']) {
    expect(report.byKind[kind]?.['200'] ?? 0, `${kind} succeeded at least once\n${text}`).toBeGreaterThan(0);
  }
  expect(report.ticks.ran, text).toBeGreaterThan(1);
  expect(report.ok, text).toBe(true);
}, 600_000);
