import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchUnseenLatestPosts, loadedLatestPostIds } from '@/lib/client/realtime/cache';
import { useRealtimeEvent, useRealtimeReconnect } from './realtime-provider';

/** At most this many waiting posts are remembered (the banner says "50+" beyond). */
const MAX_PENDING = 50;

const merge = (pending: string[], ids: string[]) => {
  const fresh = ids.filter((id) => !pending.includes(id));
  return fresh.length === 0 ? pending : [...fresh, ...pending].slice(0, MAX_PENDING);
};

/**
 * Posts by others that went live after the Latest feed was loaded: counted from feed_update
 * events (and, after a reconnect, from the feed's head, in case the outage outlasted the
 * server's replay), never inserted on their own, so nothing moves under the reader. Reposts are
 * not in the Latest feed and one's own posts already appear (posting refreshes the feed).
 * `show(refetch)` loads them into the feed and clears the count.
 */
export const useNewPosts = ({ loadedIds, myUserId }: { loadedIds: ReadonlySet<string>; myUserId: string | undefined }) => {
  const qc = useQueryClient();
  const [pending, setPending] = useState<string[]>([]);
  const [isShowing, setIsShowing] = useState(false);

  useRealtimeEvent('feed_update', ({ post }) => {
    if (post.repostId || post.authorId === myUserId) return;
    if (loadedLatestPostIds(qc).has(post.id)) return;
    setPending((p) => merge(p, [post.id]));
  });

  useRealtimeReconnect(() => {
    fetchUnseenLatestPosts(qc, myUserId).then(
      (posts) => setPending((p) => merge(p, posts.map((post) => post.id))),
      // A failed check only means the count may be short until the next event.
      () => {},
    );
  });

  // A refetch for another reason (posting, focus) may already have brought some in.
  const count = pending.filter((id) => !loadedIds.has(id)).length;

  const show = async (refetch: () => Promise<unknown>) => {
    setIsShowing(true);
    try {
      await refetch();
      setPending([]);
    } finally {
      setIsShowing(false);
    }
  };

  return { count, isCapped: pending.length >= MAX_PENDING, isShowing, show };
};
