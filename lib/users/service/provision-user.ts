/**
 * Provisioning: the account behind a token subject, created on first sign-in with its starting
 * balance (through lib/ledger) in one transaction. No caller: this is where a caller's user comes from.
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { users, type TUserRow } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import { credit } from '@/lib/ledger/ledger';
import { dec } from '@/lib/money/decimal';
import { generateReferralCode, usernameCandidate } from '../names';
import { findUserBySubject, isUsernameTaken } from '../queries';
import { isUniqueViolation } from './shared';

export type TProvisionInput = {
  subject: string;
  email?: string;
  name?: string;
  preferredUsername?: string;
  isAgent?: boolean;
};

/**
 * The user behind a token subject, created on first sight with a unique username,
 * profileComplete false and STARTING_BALANCE credited as a `deposit`. Safe under concurrent
 * first requests: exactly one of them inserts and credits, the others read its row.
 */
export async function provisionUser(input: TProvisionInput): Promise<TUserRow> {
  const db = await getDb();
  const existing = await findUserBySubject(db, input.subject);
  if (existing) return existing;

  const wish = input.preferredUsername ?? input.name ?? input.email?.split('@')[0];
  for (let attempt = 0; attempt < 6; attempt++) {
    const username = usernameCandidate(wish, attempt);
    if (await isUsernameTaken(db, username)) continue;
    try {
      return await withTransaction(async (tx) => {
        const at = now();
        const [row] = await tx
          .insert(users)
          .values({
            authSubject: input.subject,
            username,
            displayName: '',
            email: input.email ?? null,
            isAgent: input.isAgent ?? false,
            referralCode: generateReferralCode(),
            createdAt: at,
            updatedAt: at,
          })
          .onConflictDoNothing({ target: users.authSubject })
          .returning();
        if (!row) {
          // Another request provisioned this subject first.
          const [winner] = await tx.select().from(users).where(eq(users.authSubject, input.subject));
          return winner!;
        }
        const starting = dec(env().startingBalance);
        if (starting.gt(0)) {
          await credit(tx, {
            userId: row.id,
            amount: starting,
            type: 'deposit',
            description: 'Starting balance',
          });
        }
        const [fresh] = await tx.select().from(users).where(eq(users.id, row.id));
        return fresh!;
      });
    } catch (e) {
      // A username (or referral code) taken between the check and the insert: try another.
      if (isUniqueViolation(e)) continue;
      throw e;
    }
  }
  throw new AppError('INTERNAL_ERROR', 'Could not allocate a username');
}
