/** What the user services share. */
import 'server-only';
import { postgresErrorCode } from '@/db/client';

/** A unique key refused the write (a username or referral code taken in the meantime). */
export function isUniqueViolation(e: unknown) {
  return postgresErrorCode(e) === '23505';
}
