/** Constant-time comparison of secrets (cron secret, agent credentials). */
import { timingSafeEqual } from 'node:crypto';

export function secretsEqual(given: string, expected: string) {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
