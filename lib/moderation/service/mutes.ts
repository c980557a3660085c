/**
 * Mutes (A2A moderation.muteUser, unmuteUser, getMutes, checkMuteStatus): one way and silent.
 * The muter stops seeing the muted user's posts and notifications (lib/moderation/visibility.ts);
 * the muted user is never told and nothing changes for them, so follows stay.
 */
import 'server-only';
import { and, count, desc, eq } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { mutes, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { toMuteDto } from '../dto';
import { pageOf, requireOtherUser, signalVisibilityChanged } from './shared';

export async function muteUser(input: { caller: TCaller; userId: string; reason?: string }) {
  const { caller } = input;
  const target = await requireOtherUser(caller.userId, input.userId, 'mute');
  const mute = await withTransaction(async (tx) => {
    const [row] = await tx
      .insert(mutes)
      .values({ muterId: caller.userId, mutedId: target.id, reason: input.reason || null, createdAt: now() })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('ALREADY_MUTED', `You already muted @${target.username}`, { userId: target.id });
    // Only the muter's streams change; the muted user's see nothing new.
    await signalVisibilityChanged(tx, [caller.userId]);
    return row;
  });
  return { message: `Muted @${target.username}`, mute: toMuteDto(mute) };
}

export async function unmuteUser(input: { caller: TCaller; userId: string }) {
  const { caller } = input;
  const target = await requireOtherUser(caller.userId, input.userId, 'unmute');
  const mute = await withTransaction(async (tx) => {
    const [row] = await tx
      .delete(mutes)
      .where(and(eq(mutes.muterId, caller.userId), eq(mutes.mutedId, target.id)))
      .returning();
    if (!row) throw new AppError('NOT_MUTED', `You have not muted @${target.username}`, { userId: target.id });
    await signalVisibilityChanged(tx, [caller.userId]);
    return row;
  });
  return { message: `Unmuted @${target.username}`, mute: toMuteDto(mute) };
}

/** POST /api/users/{userId}/mute: one route, two actions. */
export function setMute(input: { caller: TCaller; userId: string; action: 'mute' | 'unmute'; reason?: string }) {
  return input.action === 'mute' ? muteUser(input) : unmuteUser(input);
}

export async function getMuteStatus(input: { caller: TCaller; userId: string }) {
  const target = await requireOtherUser(input.caller.userId, input.userId, 'mute');
  const [row] = await (await getDb())
    .select()
    .from(mutes)
    .where(and(eq(mutes.muterId, input.caller.userId), eq(mutes.mutedId, target.id)));
  return { isMuted: !!row, mute: row ? { id: row.id, createdAt: row.createdAt.toISOString(), reason: row.reason } : null };
}

export async function listMutes(input: { caller: TCaller; limit: number; offset: number }) {
  const db = await getDb();
  const mine = eq(mutes.muterId, input.caller.userId);
  const [rows, [total]] = await Promise.all([
    db
      .select({ mute: mutes, user: { id: users.id, username: users.username, displayName: users.displayName, profileImageUrl: users.profileImageUrl } })
      .from(mutes)
      .innerJoin(users, eq(users.id, mutes.mutedId))
      .where(mine)
      .orderBy(desc(mutes.createdAt), desc(mutes.id))
      .limit(input.limit)
      .offset(input.offset),
    db.select({ n: count() }).from(mutes).where(mine),
  ]);
  return {
    mutes: rows.map((r) => ({ id: r.mute.id, createdAt: r.mute.createdAt.toISOString(), reason: r.mute.reason, muted: r.user })),
    pagination: pageOf(input, Number(total?.n ?? 0)),
  };
}
