/**
 * Searching users and actors by username or display name. Public in shape, but never lists
 * someone in a block with the caller, in either direction (lib/users/queries.ts searchUsers).
 */
import 'server-only';
import { getDb } from '@/db/client';
import type { TCaller } from '@/lib/auth/caller';
import { searchUsers as searchUserRows } from '../queries';

export async function searchUsers(input: { caller: TCaller | null; q: string; limit: number; type?: 'user' | 'actor' }) {
  const { caller, ...opts } = input;
  const rows = await searchUserRows(await getDb(), { ...opts, callerId: caller?.userId ?? null });
  return { users: rows, count: rows.length };
}
