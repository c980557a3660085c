/**
 * Waitlist bonuses, each once per player, in one transaction with its points:
 *   email   a syntactically valid address (the route's schema), one per player and one player
 *           per address (waitlist_emails); pays WAITLIST_EMAIL_POINTS
 *   wallet  an EIP-55 checksummed address (the route's schema), one per player and one player
 *           per address (users.wallet_address is unique); sets walletAddress and pays the
 *           wallet_connected milestone
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { getAddress } from 'viem';
import { withTransaction } from '@/db/client';
import { users, waitlistEmails } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { applyPointsChange } from '@/lib/points/ledger';
import { WAITLIST_EMAIL_AWARD_KEY, WAITLIST_EMAIL_POINTS } from '@/lib/points/milestones';
import { awardMilestone } from '@/lib/points/service/milestones';
import { lockUser } from '@/lib/users/service/update-profile';
import { isUniqueViolation } from '@/lib/users/service/shared';

export const claimEmailBonus = async (input: { caller: TCaller; email: string }) => {
  const email = input.email.trim();
  try {
    return await withTransaction(async (tx) => {
      const at = now();
      await lockUser(tx, input.caller.userId);
      const [mine] = await tx.select().from(waitlistEmails).where(eq(waitlistEmails.userId, input.caller.userId));
      if (mine) throw new AppError('BONUS_ALREADY_CLAIMED', 'The email bonus was already claimed', { email: mine.email });
      await tx.insert(waitlistEmails).values({ userId: input.caller.userId, email, createdAt: at });
      const paid = await applyPointsChange(tx, {
        userId: input.caller.userId,
        amount: WAITLIST_EMAIL_POINTS,
        reason: 'waitlist:email',
        awardKey: WAITLIST_EMAIL_AWARD_KEY,
      });
      return { email, bonusAwarded: paid?.amount ?? 0, points: paid?.pointsAfter ?? (await lockUser(tx, input.caller.userId)).reputationPoints };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('EMAIL_TAKEN', 'This email address is already on the waitlist', { field: 'email' });
    throw e;
  }
};

/** Whether an address carries its EIP-55 checksum (mixed case that hashes right; all-lower or all-upper carry none). */
export const isChecksummedAddress = (address: string) => {
  try {
    return getAddress(address) === address;
  } catch {
    return false;
  }
};

export const claimWalletBonus = async (input: { caller: TCaller; walletAddress: string }) => {
  const address = input.walletAddress;
  if (!isChecksummedAddress(address)) {
    throw new AppError('VALIDATION_ERROR', 'walletAddress must be an EIP-55 checksummed address', { field: 'walletAddress', provided: address });
  }
  try {
    return await withTransaction(async (tx) => {
      const at = now();
      const user = await lockUser(tx, input.caller.userId);
      if (user.walletAddress && user.walletAddress.toLowerCase() !== address.toLowerCase()) {
        throw new AppError('BONUS_ALREADY_CLAIMED', 'A wallet is already connected to this account', { walletAddress: user.walletAddress });
      }
      const [other] = await tx.select({ id: users.id }).from(users).where(eq(users.walletAddress, address));
      if (other && other.id !== user.id) throw new AppError('WALLET_TAKEN', 'This wallet is connected to another account', { field: 'walletAddress' });
      if (!user.walletAddress) await tx.update(users).set({ walletAddress: address, updatedAt: at }).where(eq(users.id, user.id));
      const bonusAwarded = await awardMilestone(tx, user.id, 'wallet_connected');
      const [after] = await tx.select({ points: users.reputationPoints }).from(users).where(eq(users.id, user.id));
      return { walletAddress: user.walletAddress ?? address, bonusAwarded, points: after!.points };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('WALLET_TAKEN', 'This wallet is connected to another account', { field: 'walletAddress' });
    throw e;
  }
};
