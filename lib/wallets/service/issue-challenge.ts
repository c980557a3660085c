/**
 * Issuing a wallet challenge to the caller for one address (POST /api/users/wallet/challenge):
 * a random nonce, the text to sign (lib/wallets/challenge.ts) and an expiry CHALLENGE_TTL_MS
 * ahead, stored for the binding to check. A new challenge replaces the caller's open ones (at
 * most one is ever open per account, so the table stays small); used ones stay as the proofs.
 */
import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { withTransaction } from '@/db/client';
import { walletChallenges } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { lockUser } from '@/lib/users/service/update-profile';
import { buildChallengeMessage, CHALLENGE_TTL_MS, isChecksummedAddress } from '../challenge';

export function assertChecksummedAddress(address: string, field: string) {
  if (!isChecksummedAddress(address)) {
    throw new AppError('VALIDATION_ERROR', `${field} must be an EIP-55 checksummed address`, { field, provided: address });
  }
}

/** Issues a challenge for the caller and `address`; answers what the wallet signs and until when. */
export async function issueWalletChallenge(input: { caller: TCaller; address: string }) {
  assertChecksummedAddress(input.address, 'address');
  return withTransaction(async (tx) => {
    const user = await lockUser(tx, input.caller.userId);
    const issuedAt = now();
    const expiresAt = new Date(issuedAt.getTime() + CHALLENGE_TTL_MS);
    await tx.delete(walletChallenges).where(and(eq(walletChallenges.userId, user.id), isNull(walletChallenges.usedAt)));
    const message = buildChallengeMessage({ userId: user.id, address: input.address, nonce: randomBytes(16).toString('hex'), issuedAt, expiresAt });
    const [row] = await tx
      .insert(walletChallenges)
      .values({ userId: user.id, address: input.address, message, expiresAt, createdAt: issuedAt })
      .returning();
    return { challenge: { id: row!.id, address: row!.address, message: row!.message, expiresAt: row!.expiresAt.toISOString() } };
  });
}
