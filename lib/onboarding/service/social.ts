/**
 * Linked social accounts, public-profile visibility and tracked shares (owner only):
 *   link-social        verify the account (lib/onboarding/verifier), then in one transaction
 *                      store the link, set hasSocialA/B and pay the platform's milestone once
 *   update-visibility  the three public-profile flags (handles and wallet)
 *   share              record a share action (pending) and answer its id
 *   verify-share       verify the external post, mark the action verified and pay SHARE_POINTS
 *                      once per content and platform (a second share of the same content pays 0)
 */
import 'server-only';
import { and, eq } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { shareActions, socialLinks, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { applyPointsChange } from '@/lib/points/ledger';
import { SHARE_POINTS, shareAwardKey } from '@/lib/points/milestones';
import { awardMilestone } from '@/lib/points/service/milestones';
import { socialVerifier, type TSocialPlatform } from '../verifier';

const assertOwner = (caller: TCaller, userId: string, what: string) => {
  if (caller.userId !== userId) throw new AppError('FORBIDDEN', `You can only ${what} for your own account`);
};

export const linkSocial = async (input: { caller: TCaller; userId: string; platform: TSocialPlatform; accessToken: string; username: string }) => {
  assertOwner(input.caller, input.userId, 'link social accounts');
  const verdict = await socialVerifier().verifyAccount(input);
  if (!verdict.ok) throw new AppError('VERIFICATION_FAILED', verdict.reason, { platform: input.platform });
  const handle = (verdict.username ?? input.username).replace(/^@/, '');
  return withTransaction(async (tx) => {
    const at = now();
    await tx
      .insert(socialLinks)
      .values({ userId: input.userId, platform: input.platform, username: handle, linkedAt: at })
      .onConflictDoUpdate({ target: [socialLinks.userId, socialLinks.platform], set: { username: handle } });
    await tx
      .update(users)
      .set(input.platform === 'social_a' ? { hasSocialA: true, updatedAt: at } : { hasSocialB: true, updatedAt: at })
      .where(eq(users.id, input.userId));
    const pointsAwarded = await awardMilestone(tx, input.userId, input.platform === 'social_a' ? 'social_a_linked' : 'social_b_linked');
    const [u] = await tx
      .select({ hasSocialA: users.hasSocialA, hasSocialB: users.hasSocialB, reputationPoints: users.reputationPoints })
      .from(users)
      .where(eq(users.id, input.userId));
    return { linked: true as const, platform: input.platform, username: handle, pointsAwarded, ...u! };
  });
};

export type TVisibility = { showSocialAPublic?: boolean; showSocialBPublic?: boolean; showWalletPublic?: boolean };

export const updateVisibility = async (input: { caller: TCaller; userId: string } & TVisibility) => {
  assertOwner(input.caller, input.userId, 'change visibility');
  const db = await getDb();
  const patch: Partial<typeof users.$inferInsert> = { updatedAt: now() };
  if (input.showSocialAPublic !== undefined) patch.showSocialAPublic = input.showSocialAPublic;
  if (input.showSocialBPublic !== undefined) patch.showSocialBPublic = input.showSocialBPublic;
  if (input.showWalletPublic !== undefined) patch.showWalletPublic = input.showWalletPublic;
  const [row] = await db
    .update(users)
    .set(patch)
    .where(eq(users.id, input.userId))
    .returning({ showSocialAPublic: users.showSocialAPublic, showSocialBPublic: users.showSocialBPublic, showWalletPublic: users.showWalletPublic });
  if (!row) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: input.userId });
  return { visibility: row };
};

const toShareDto = (s: typeof shareActions.$inferSelect) => ({
  id: s.id,
  userId: s.userId,
  platform: s.platform,
  contentType: s.contentType,
  contentId: s.contentId,
  url: s.url,
  status: s.status as 'pending' | 'verified',
  pointsAwarded: s.pointsAwarded,
  createdAt: s.createdAt.toISOString(),
  verifiedAt: s.verifiedAt?.toISOString() ?? null,
});

export const recordShare = async (input: {
  caller: TCaller;
  userId: string;
  platform: string;
  contentType: string;
  contentId: string;
  url?: string | null;
}) => {
  assertOwner(input.caller, input.userId, 'record shares');
  const db = await getDb();
  const [row] = await db
    .insert(shareActions)
    .values({
      userId: input.userId,
      platform: input.platform,
      contentType: input.contentType,
      contentId: input.contentId,
      url: input.url ?? null,
      createdAt: now(),
    })
    .returning();
  return { shareActionId: row!.id, shareAction: toShareDto(row!) };
};

export const verifyShare = async (input: {
  caller: TCaller;
  userId: string;
  shareActionId: string;
  verificationDetails: { postId: string; url: string };
}) => {
  assertOwner(input.caller, input.userId, 'verify shares');
  const db = await getDb();
  const [action] = await db
    .select()
    .from(shareActions)
    .where(and(eq(shareActions.id, input.shareActionId), eq(shareActions.userId, input.userId)));
  if (!action) throw new AppError('SHARE_ACTION_NOT_FOUND', 'Share action not found', { shareActionId: input.shareActionId });
  if (action.status === 'verified') return { verified: true, pointsAwarded: 0, shareAction: toShareDto(action) };
  const verdict = await socialVerifier().verifyShare({ platform: action.platform, ...input.verificationDetails });
  if (!verdict.ok) throw new AppError('VERIFICATION_FAILED', verdict.reason, { shareActionId: action.id });
  return withTransaction(async (tx) => {
    const at = now();
    const [claimed] = await tx
      .update(shareActions)
      .set({ status: 'verified', verifiedAt: at, externalPostId: input.verificationDetails.postId, externalUrl: input.verificationDetails.url })
      .where(and(eq(shareActions.id, action.id), eq(shareActions.status, 'pending')))
      .returning();
    if (!claimed) {
      const [now_] = await tx.select().from(shareActions).where(eq(shareActions.id, action.id));
      return { verified: true, pointsAwarded: 0, shareAction: toShareDto(now_!) };
    }
    const paid = await applyPointsChange(tx, {
      userId: input.userId,
      amount: SHARE_POINTS,
      reason: 'share_verified',
      awardKey: shareAwardKey(action.platform, action.contentType, action.contentId),
      metadata: { shareActionId: action.id, platform: action.platform, contentType: action.contentType, contentId: action.contentId },
    });
    const pointsAwarded = paid ? paid.amount : 0;
    const [done] = await tx.update(shareActions).set({ pointsAwarded }).where(eq(shareActions.id, action.id)).returning();
    return { verified: true, pointsAwarded, shareAction: toShareDto(done!) };
  });
};
