/** What the user services share. */
import 'server-only';
import { postgresErrorCode } from '@/db/client';

/** A unique key refused the write (a username or referral code taken in the meantime). */
export const isUniqueViolation = (e: unknown) => postgresErrorCode(e) === '23505';
