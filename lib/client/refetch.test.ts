/**
 * refetchAnew reads a query again even while its first load is in flight: that load was asked
 * before the change, and React Query's invalidateQueries alone joins it (shown here too, so the
 * test fails if refetchAnew did only that).
 */
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refetchAnew } from './refetch';

/** A query on its first load: the server answers 'before' to the first request and 'after' to later ones, when released. */
const firstLoadInFlight = () => {
  const qc = new QueryClient();
  const releases: (() => void)[] = [];
  let calls = 0;
  const queryFn = () => {
    const answer = calls++ === 0 ? 'before' : 'after';
    return new Promise<string>((resolve) => releases.push(() => resolve(answer)));
  };
  // An observer makes the query active, as a mounted component does; it starts the first load.
  const observer = new QueryObserver(qc, { queryKey: ['unread'], queryFn });
  const unsubscribe = observer.subscribe(() => {});
  const releaseAll = async () => {
    for (let i = 0; i < 5 && releases.length; i++) {
      releases.splice(0).forEach((r) => r());
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { qc, releaseAll, unsubscribe, calls: () => calls };
};

describe('refetchAnew', () => {
  it('restarts a first load that was asked before the change', async () => {
    const q = firstLoadInFlight();
    const done = refetchAnew(q.qc, ['unread']);
    await q.releaseAll();
    await done;
    expect(q.calls()).toBe(2);
    expect(q.qc.getQueryData(['unread'])).toBe('after');
    q.unsubscribe();
  });

  it('(invalidateQueries alone joins that load and keeps its answer)', async () => {
    const q = firstLoadInFlight();
    const done = q.qc.invalidateQueries({ queryKey: ['unread'] });
    await q.releaseAll();
    await done;
    expect(q.calls()).toBe(1);
    expect(q.qc.getQueryData(['unread'])).toBe('before');
    q.unsubscribe();
  });
});
