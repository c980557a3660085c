/**
 * Linked social accounts, public-profile visibility and tracked shares (owner only):
 *   link-social        verify the account (lib/onboarding/verifier), then in one transaction
 *                      store the link, set hasSocialA/B and pay the platform's milestone once
 *   update-visibility  the three public-profile flags (handles and wallet)
 *   share              record a share action (pending) and answer its id
 *   verify-share       verify the external post (by the linked handle, never used before, within
 *                      the day's budget: lib/onboarding/share-proof), mark the action verified
 *                      with its post id and pay SHARE_POINTS once per content and platform (a
 *                      second share of the same content pays 0)
 */
import 'server-only';
import { and, count, eq, gte, lt } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { shareActions, socialLinks, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { applyPointsChange } from '@/lib/points/ledger';
import { SHARE_POINTS, shareAwardKey } from '@/lib/points/milestones';
import { awardMilestone } from '@/lib/points/service/milestones';
import { lockUser } from '@/lib/users/service/update-profile';
import { isUniqueViolation } from '@/lib/users/service/shared';
import { checkShareUrl, isSameHandle, SHARE_VERIFICATIONS_PER_DAY, utcDayOf } from '../share-proof';
import { SOCIAL_PLATFORMS, socialVerifier, type TSocialPlatform } from '../verifier';

const assertOwner = (caller: TCaller, userId: string, what: string) => {
  if (caller.userId !== userId) throw new AppError('FORBIDDEN', `You can only ${what} for your own account`);
};

export async function linkSocial(input: { caller: TCaller; userId: string; platform: TSocialPlatform; accessToken: string; username: string }) {
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
}

export type TVisibility = { showSocialAPublic?: boolean; showSocialBPublic?: boolean; showWalletPublic?: boolean };

export async function updateVisibility(input: { caller: TCaller; userId: string } & TVisibility) {
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
}

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

export async function recordShare(input: {
  caller: TCaller;
  userId: string;
  platform: string;
  contentType: string;
  contentId: string;
  url?: string | null;
}) {
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
}

const shareRefusal = (problem: 'not_by_handle' | 'post_id_missing', ctx: { shareActionId: string; platform: string; handle: string }) =>
  problem === 'not_by_handle'
    ? new AppError('SHARE_NOT_YOURS', `The post is not by your linked ${ctx.platform} account @${ctx.handle}`, { ...ctx, field: 'verificationDetails.url' })
    : new AppError('VERIFICATION_FAILED', "The post's URL does not name its post id", { shareActionId: ctx.shareActionId, field: 'verificationDetails.url' });

const postAlreadyUsed = (platform: string, postId: string) =>
  new AppError('SHARE_POST_ALREADY_USED', 'This post already verified a share: each post verifies one share, ever', { platform, postId });

/**
 * Verifies a recorded share by its external post and pays SHARE_POINTS once per content and
 * platform. The post must be by the player's linked handle on the share's platform (its URL, and
 * the platform's word when it names the author), may verify one share ever (the post id is unique
 * per platform: share_actions_external_post_idx), and a player verifies at most
 * SHARE_VERIFICATIONS_PER_DAY shares per UTC day of game time (counted under the user's row lock).
 * Any refusal changes nothing; an action already verified answers again with 0 points.
 */
export async function verifyShare(input: {
  caller: TCaller;
  userId: string;
  shareActionId: string;
  verificationDetails: { postId: string; url: string };
}) {
  assertOwner(input.caller, input.userId, 'verify shares');
  const db = await getDb();
  const [action] = await db
    .select()
    .from(shareActions)
    .where(and(eq(shareActions.id, input.shareActionId), eq(shareActions.userId, input.userId)));
  if (!action) throw new AppError('SHARE_ACTION_NOT_FOUND', 'Share action not found', { shareActionId: input.shareActionId });
  if (action.status === 'verified') return { verified: true, pointsAwarded: 0, shareAction: toShareDto(action) };
  const { postId, url } = input.verificationDetails;
  const [link] = (SOCIAL_PLATFORMS as readonly string[]).includes(action.platform)
    ? await db.select().from(socialLinks).where(and(eq(socialLinks.userId, input.userId), eq(socialLinks.platform, action.platform)))
    : [];
  if (!link) {
    throw new AppError('SOCIAL_NOT_LINKED', `Link your ${action.platform} account before verifying shares on it`, { platform: action.platform, shareActionId: action.id });
  }
  const ctx = { shareActionId: action.id, platform: action.platform, handle: link.username };
  const shape = checkShareUrl({ url, postId, handle: link.username });
  if (!shape.ok) throw shareRefusal(shape.problem, ctx);
  const [used] = await db
    .select({ id: shareActions.id })
    .from(shareActions)
    .where(and(eq(shareActions.platform, action.platform), eq(shareActions.externalPostId, postId)));
  if (used) throw postAlreadyUsed(action.platform, postId);
  const verdict = await socialVerifier().verifyShare({ platform: action.platform, postId, url });
  if (!verdict.ok) throw new AppError('VERIFICATION_FAILED', verdict.reason, { shareActionId: action.id });
  if (verdict.username !== undefined && !isSameHandle(verdict.username, link.username)) throw shareRefusal('not_by_handle', ctx);
  try {
    return await withTransaction(async (tx) => {
      const at = now();
      await lockUser(tx, input.userId);
      const day = utcDayOf(at);
      const [today] = await tx
        .select({ n: count() })
        .from(shareActions)
        .where(and(eq(shareActions.userId, input.userId), eq(shareActions.status, 'verified'), gte(shareActions.verifiedAt, day.start), lt(shareActions.verifiedAt, day.end)));
      if (today!.n >= SHARE_VERIFICATIONS_PER_DAY) {
        throw new AppError('SHARE_DAILY_LIMIT', `At most ${SHARE_VERIFICATIONS_PER_DAY} shares can be verified per day`, {
          limit: SHARE_VERIFICATIONS_PER_DAY,
          retryAt: day.end.toISOString(),
        });
      }
      const [claimed] = await tx
        .update(shareActions)
        .set({ status: 'verified', verifiedAt: at, externalPostId: postId, externalUrl: url })
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
        metadata: { shareActionId: action.id, platform: action.platform, contentType: action.contentType, contentId: action.contentId, postId },
      });
      const pointsAwarded = paid ? paid.amount : 0;
      const [done] = await tx.update(shareActions).set({ pointsAwarded }).where(eq(shareActions.id, action.id)).returning();
      return { verified: true, pointsAwarded, shareAction: toShareDto(done!) };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw postAlreadyUsed(action.platform, postId);
    throw e;
  }
}
