/**
 * Reads queries again because something changed on the server (the reader's own write, or a live
 * event). React Query's invalidateQueries cancels a refetch of data it already has, but a query
 * still on its first load is joined, not restarted: that load was asked before the change, so its
 * answer would stand until the next poll or reload. Each query is cancelled first, so every one
 * (first load or not) is read anew.
 * I/O: the given QueryClient only.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';

export async function refetchAnew(qc: QueryClient, ...queryKeys: QueryKey[]) {
  await Promise.all(queryKeys.map((queryKey) => qc.cancelQueries({ queryKey })));
  await Promise.all(queryKeys.map((queryKey) => qc.invalidateQueries({ queryKey })));
}
