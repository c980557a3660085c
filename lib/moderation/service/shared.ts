/** What the moderation services share: the other user, and the signal to live streams. */
import 'server-only';
import type { DbOrTx } from '@/db/client';
import { getDb } from '@/db/client';
import type { TUserRow } from '@/db/schema';
import { AppError } from '@/lib/errors/app-error';
import { emitEvent } from '@/lib/events/outbox';
import { findUserByIdentifier } from '@/lib/users/queries';

/** The user `ident` names (id, username or wallet address), never the caller; USER_NOT_FOUND or CANNOT_TARGET_SELF. */
export async function requireOtherUser(callerId: string, ident: string, verb: string): Promise<TUserRow> {
  const user = await findUserByIdentifier(await getDb(), ident);
  if (!user || user.isPoolAccount) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: ident });
  if (user.id === callerId) throw new AppError('CANNOT_TARGET_SELF', `You cannot ${verb} yourself`);
  return user;
}

/**
 * Tells live streams (lib/realtime) that what these users may see of each other changed: written
 * in the change's own transaction, so a stream reloads exactly when the change committed.
 */
export function signalVisibilityChanged(tx: DbOrTx, userIds: string[]) {
  return emitEvent(tx, 'moderation', { type: 'visibility_changed', data: { userIds } });
}

/** Offset pagination as the moderation lists answer it. */
export function pageOf(q: { limit: number; offset: number }, total: number) {
  return { limit: q.limit, offset: q.offset, total };
}
