/**
 * Waitlist bonuses, each once per player, each only with proof, in one transaction with its points:
 *   email   requestEmailBonus stores a random token (its SHA-256 only, EMAIL_TOKEN_TTL_MS of life,
 *           replacing the player's unused ones) and sends it to the address through lib/mail, in
 *           the same transaction (a refused send, EMAIL_NOT_CONFIGURED in production without a
 *           transport, keeps nothing). Nothing is reserved or paid yet. verifyEmailBonus, given
 *           the token by the player who asked for it, reserves the address (waitlist_emails: one
 *           per player, one player per address), marks the token used and pays
 *           WAITLIST_EMAIL_POINTS. The token never appears in an answer.
 *   wallet  an EIP-55 checksummed address and its owner's signature of a challenge issued to this
 *           player (lib/wallets consumeWalletProof, used in this transaction); one per player and
 *           one player per address (users.wallet_address is unique); sets walletAddress and pays
 *           the wallet_connected milestone
 */
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { withTransaction, type Tx } from '@/db/client';
import { users, waitlistEmails, waitlistEmailTokens } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { mailer } from '@/lib/mail/mailer';
import { applyPointsChange } from '@/lib/points/ledger';
import { WAITLIST_EMAIL_AWARD_KEY, WAITLIST_EMAIL_POINTS } from '@/lib/points/milestones';
import { awardMilestone } from '@/lib/points/service/milestones';
import { lockUser } from '@/lib/users/service/update-profile';
import { isUniqueViolation } from '@/lib/users/service/shared';
import { assertChecksummedAddress } from '@/lib/wallets/service/issue-challenge';
import { consumeWalletProof, type TWalletProof } from '@/lib/wallets/service/prove-ownership';

/** An email verification token is good for a day of game time. */
export const EMAIL_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

const hashToken = (token: string) => createHash('sha256').update(token.trim()).digest('hex');

const emailTaken = () => new AppError('EMAIL_TAKEN', 'This email address is already on the waitlist', { field: 'email' });

const assertNotClaimed = async (tx: Tx, userId: string) => {
  const [mine] = await tx.select().from(waitlistEmails).where(eq(waitlistEmails.userId, userId));
  if (mine) throw new AppError('BONUS_ALREADY_CLAIMED', 'The email bonus was already claimed', { email: mine.email });
};

/** Sends a verification token to `email`; the bonus waits for verifyEmailBonus. */
export async function requestEmailBonus(input: { caller: TCaller; email: string }) {
  const email = input.email.trim();
  return withTransaction(async (tx) => {
    const at = now();
    const user = await lockUser(tx, input.caller.userId);
    await assertNotClaimed(tx, user.id);
    const [other] = await tx.select({ userId: waitlistEmails.userId }).from(waitlistEmails).where(sql`lower(${waitlistEmails.email}) = lower(${email})`);
    if (other) throw emailTaken();
    await tx.delete(waitlistEmailTokens).where(and(eq(waitlistEmailTokens.userId, user.id), isNull(waitlistEmailTokens.usedAt)));
    const token = randomBytes(24).toString('base64url');
    const expiresAt = new Date(at.getTime() + EMAIL_TOKEN_TTL_MS);
    await tx.insert(waitlistEmailTokens).values({ userId: user.id, email, tokenHash: hashToken(token), expiresAt, createdAt: at });
    // Sent inside the transaction: a refused send keeps no token. Should the commit fail after a
    // send, the mailed token matches nothing and a new request sends another.
    await mailer().send({
      to: email,
      subject: 'Your waitlist verification code',
      text: `Your code to confirm this address for the waitlist bonus: ${token}\nIt expires at ${expiresAt.toISOString()}. If you did not ask for it, ignore this message.`,
    });
    return { email, verificationSent: true as const, expiresAt: expiresAt.toISOString() };
  });
}

/** Presents the token mailed by requestEmailBonus: reserves the address and pays the bonus, once. */
export async function verifyEmailBonus(input: { caller: TCaller; token: string }) {
  try {
    return await withTransaction(async (tx) => {
      const at = now();
      const user = await lockUser(tx, input.caller.userId);
      await assertNotClaimed(tx, user.id);
      const [pending] = await tx
        .select()
        .from(waitlistEmailTokens)
        .where(and(eq(waitlistEmailTokens.tokenHash, hashToken(input.token)), eq(waitlistEmailTokens.userId, user.id), isNull(waitlistEmailTokens.usedAt)));
      if (!pending) throw new AppError('EMAIL_TOKEN_INVALID', 'This verification code is not valid: check it, or ask for a new one', { field: 'token' });
      if (pending.expiresAt.getTime() <= at.getTime()) {
        throw new AppError('EMAIL_TOKEN_EXPIRED', 'This verification code has expired: ask for a new one', { field: 'token', expiredAt: pending.expiresAt.toISOString() });
      }
      await tx.insert(waitlistEmails).values({ userId: user.id, email: pending.email, createdAt: at });
      await tx.update(waitlistEmailTokens).set({ usedAt: at }).where(eq(waitlistEmailTokens.id, pending.id));
      const paid = await applyPointsChange(tx, {
        userId: user.id,
        amount: WAITLIST_EMAIL_POINTS,
        reason: 'waitlist:email',
        awardKey: WAITLIST_EMAIL_AWARD_KEY,
      });
      return { email: pending.email, bonusAwarded: paid?.amount ?? 0, points: paid?.pointsAfter ?? user.reputationPoints };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw emailTaken();
    throw e;
  }
}

export async function claimWalletBonus(input: { caller: TCaller; walletAddress: string } & Omit<TWalletProof, 'address'>) {
  const address = input.walletAddress;
  assertChecksummedAddress(address, 'walletAddress');
  try {
    return await withTransaction(async (tx) => {
      const at = now();
      const user = await lockUser(tx, input.caller.userId);
      // The proof comes first: without it a claim learns nothing about the address.
      await consumeWalletProof(tx, { userId: user.id, at, address, signature: input.signature, challengeId: input.challengeId });
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
}
