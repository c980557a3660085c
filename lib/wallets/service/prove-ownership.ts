/**
 * The proof behind every wallet binding: in the binding's own transaction, the challenge issued
 * to this account for this address is locked, checked (not expired, not used) and its signature
 * verified with viem's verifyMessage (EIP-191, recovered signer = the address); it is then marked
 * used with the signature. The binding and the use commit together, so a challenge binds once and
 * a binding that fails later (the address taken) leaves the challenge open. verifyMessage does no
 * I/O (plain ECDSA recovery, no chain client).
 */
import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import { verifyMessage, type Hex } from 'viem';
import type { Tx } from '@/db/client';
import { walletChallenges } from '@/db/schema';
import { AppError } from '@/lib/errors/app-error';

export type TWalletProof = { address: string; signature: string; challengeId?: string };

/** Uses the caller's challenge for `proof.address` if the signature proves it; throws otherwise, writing nothing. */
export async function consumeWalletProof(tx: Tx, input: { userId: string; at: Date } & TWalletProof) {
  const mine = eq(walletChallenges.userId, input.userId);
  const [challenge] = input.challengeId
    ? await tx.select().from(walletChallenges).where(and(eq(walletChallenges.id, input.challengeId), mine)).for('update')
    : await tx
        .select()
        .from(walletChallenges)
        .where(and(mine, eq(walletChallenges.address, input.address)))
        .orderBy(desc(walletChallenges.createdAt))
        .limit(1)
        .for('update');
  if (!challenge) {
    throw new AppError('CHALLENGE_NOT_FOUND', 'No wallet challenge of yours matches: ask for one (POST /api/users/wallet/challenge) and sign it', {
      challengeId: input.challengeId ?? null,
    });
  }
  if (challenge.address !== input.address) {
    throw new AppError('CHALLENGE_MISMATCH', 'This challenge was issued for another address', { challengeId: challenge.id, address: challenge.address });
  }
  if (challenge.usedAt) throw new AppError('CHALLENGE_USED', 'This challenge was already used: ask for a new one', { challengeId: challenge.id });
  if (challenge.expiresAt.getTime() <= input.at.getTime()) {
    throw new AppError('CHALLENGE_EXPIRED', 'This challenge has expired: ask for a new one', { challengeId: challenge.id, expiredAt: challenge.expiresAt.toISOString() });
  }
  let isValid = false;
  try {
    isValid = await verifyMessage({ address: challenge.address as Hex, message: challenge.message, signature: input.signature as Hex });
  } catch {
    // A malformed signature (bad recovery byte, point off the curve) proves nothing.
  }
  if (!isValid) {
    throw new AppError('INVALID_SIGNATURE', 'The signature is not by this address over the challenge', { field: 'signature', challengeId: challenge.id });
  }
  await tx.update(walletChallenges).set({ usedAt: input.at, signature: input.signature }).where(eq(walletChallenges.id, challenge.id));
  return { challengeId: challenge.id };
}
