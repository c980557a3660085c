/**
 * Spies on the statements a request sends, whichever database handle it reads: the primary and,
 * with read replicas (DATABASE_URL_REPLICA, db/client.ts), each replica's handle, which operations
 * declared `reads: 'replica'` use. A spy on `await getDb()` alone sees only the primary's: under
 * CI's replica step a statement-count test would count nothing.
 */
import { vi } from 'vitest';
import { getRootDb, getDb, replicasConfigured, withReplicaReads, type Db } from '@/db/client';
import { env } from '@/lib/env';

/** Every handle a request may read through: the primary, then each replica (round robin, deduplicated). */
export const readHandles = async (): Promise<Db[]> => {
  const handles = new Set<Db>([await getRootDb()]);
  const replicas = replicasConfigured() ? env().databaseUrlReplicas.length : 0;
  for (let i = 0; i < replicas; i++) handles.add(await withReplicaReads(getDb));
  return [...handles];
};

/** Spies on `execute` and `select` of every read handle; calls are the arguments of each call, all handles together. */
export const spyOnStatements = async () => {
  const handles = await readHandles();
  const exec = handles.map((db) => vi.spyOn(db, 'execute'));
  const select = handles.map((db) => vi.spyOn(db, 'select'));
  return {
    execCalls: () => exec.flatMap((s) => s.mock.calls as unknown[][]),
    selectCalls: () => select.flatMap((s) => s.mock.calls as unknown[][]),
    clear: () => [...exec, ...select].forEach((s) => s.mockClear()),
    restore: () => [...exec, ...select].forEach((s) => s.mockRestore()),
  };
};
