/** Searching users and actors by username or display name (public, not personalised). */
import 'server-only';
import { getDb } from '@/db/client';
import { searchUsers as searchUserRows } from '../queries';

export const searchUsers = async (opts: { q: string; limit: number; type?: 'user' | 'actor' }) => {
  const rows = await searchUserRows(await getDb(), opts);
  return { users: rows, count: rows.length };
};
