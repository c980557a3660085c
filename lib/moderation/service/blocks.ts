/**
 * Blocks (specification "Moderation (user)"; A2A moderation.blockUser, unblockUser, getBlocks,
 * checkBlockStatus). A block is one insert guarded by the (blocker, blocked) unique index, so ten
 * parallel blocks store one and the others answer 409 ALREADY_BLOCKED. In the same transaction it
 * removes follows and favorites both ways (a block ends the relationship) and signals live
 * streams. What a block hides and refuses is decided in lib/moderation/visibility.ts.
 */
import 'server-only';
import { and, count, desc, eq, or } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { getDb, withTransaction } from '@/db/client';
import { blocks, favorites, follows, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { toBlockDto } from '../dto';
import { pageOf, requireOtherUser, signalVisibilityChanged } from './shared';

/** A relationship between the two, either way: `a` follows `b` or `b` follows `a`. */
const eitherWay = (colA: AnyPgColumn, colB: AnyPgColumn, a: string, b: string) =>
  or(and(eq(colA, a), eq(colB, b)), and(eq(colA, b), eq(colB, a)));

export async function blockUser(input: { caller: TCaller; userId: string; reason?: string }) {
  const { caller } = input;
  const target = await requireOtherUser(caller.userId, input.userId, 'block');
  const block = await withTransaction(async (tx) => {
    const [row] = await tx
      .insert(blocks)
      .values({ blockerId: caller.userId, blockedId: target.id, reason: input.reason || null, createdAt: now() })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('ALREADY_BLOCKED', `You already blocked @${target.username}`, { userId: target.id });
    await tx.delete(follows).where(eitherWay(follows.followerId, follows.followingId, caller.userId, target.id));
    await tx.delete(favorites).where(eitherWay(favorites.userId, favorites.favoriteUserId, caller.userId, target.id));
    await signalVisibilityChanged(tx, [caller.userId, target.id]);
    return row;
  });
  return { message: `Blocked @${target.username}`, block: toBlockDto(block) };
}

export async function unblockUser(input: { caller: TCaller; userId: string }) {
  const { caller } = input;
  const target = await requireOtherUser(caller.userId, input.userId, 'unblock');
  const block = await withTransaction(async (tx) => {
    const [row] = await tx
      .delete(blocks)
      .where(and(eq(blocks.blockerId, caller.userId), eq(blocks.blockedId, target.id)))
      .returning();
    if (!row) throw new AppError('NOT_BLOCKED', `You have not blocked @${target.username}`, { userId: target.id });
    await signalVisibilityChanged(tx, [caller.userId, target.id]);
    return row;
  });
  return { message: `Unblocked @${target.username}`, block: toBlockDto(block) };
}

/** POST /api/users/{userId}/block: one route, two actions. */
export function setBlock(input: { caller: TCaller; userId: string; action: 'block' | 'unblock'; reason?: string }) {
  return input.action === 'block' ? blockUser(input) : unblockUser(input);
}

export async function getBlockStatus(input: { caller: TCaller; userId: string }) {
  const target = await requireOtherUser(input.caller.userId, input.userId, 'block');
  const rows = await (await getDb())
    .select()
    .from(blocks)
    .where(eitherWay(blocks.blockerId, blocks.blockedId, input.caller.userId, target.id));
  const mine = rows.find((r) => r.blockerId === input.caller.userId);
  return {
    isBlocked: !!mine,
    block: mine ? { id: mine.id, createdAt: mine.createdAt.toISOString(), reason: mine.reason } : null,
    isBlockedBy: rows.some((r) => r.blockerId === target.id),
  };
}

export async function listBlocks(input: { caller: TCaller; limit: number; offset: number }) {
  const db = await getDb();
  const mine = eq(blocks.blockerId, input.caller.userId);
  const [rows, [total]] = await Promise.all([
    db
      .select({ block: blocks, user: { id: users.id, username: users.username, displayName: users.displayName, profileImageUrl: users.profileImageUrl } })
      .from(blocks)
      .innerJoin(users, eq(users.id, blocks.blockedId))
      .where(mine)
      .orderBy(desc(blocks.createdAt), desc(blocks.id))
      .limit(input.limit)
      .offset(input.offset),
    db.select({ n: count() }).from(blocks).where(mine),
  ]);
  return {
    blocks: rows.map((r) => ({ id: r.block.id, createdAt: r.block.createdAt.toISOString(), reason: r.block.reason, blocked: r.user })),
    pagination: pageOf(input, Number(total?.n ?? 0)),
  };
}
