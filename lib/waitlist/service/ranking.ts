/** The waitlist's position of a player (owner or administrator) and its public leaderboard. */
import 'server-only';
import { getDb } from '@/db/client';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { countPlayers, waitlistPosition, waitlistTop } from '../queries';

export async function readWaitlistPosition(input: { caller: TCaller; userId?: string }) {
  const userId = input.userId ?? input.caller.userId;
  if (userId !== input.caller.userId && !input.caller.isAdmin) throw new AppError('FORBIDDEN', 'You can only read your own waitlist position');
  const pos = await waitlistPosition(await getDb(), userId);
  if (!pos) throw new AppError('USER_NOT_FOUND', 'User not found', { userId });
  return {
    position: {
      userId,
      rank: pos.player ? pos.ahead + 1 : null,
      points: pos.points,
      ahead: pos.ahead,
      totalPlayers: pos.total,
      referralCount: pos.referralCount,
      onWaitlist: pos.player,
    },
  };
}

export async function readWaitlistLeaderboard(input: { limit: number }) {
  const db = await getDb();
  const rows = await waitlistTop(db, input.limit);
  return {
    leaderboard: rows.map((r, i) => ({
      rank: i + 1,
      userId: r.id,
      username: r.username,
      displayName: r.display_name,
      profileImageUrl: r.profile_image_url,
      points: Number(r.points),
      referralCount: Number(r.referrals),
    })),
    totalPlayers: rows.length ? Number(rows[0]!.total) : await countPlayers(db),
  };
}
