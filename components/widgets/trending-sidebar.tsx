'use client';

import Link from 'next/link';
import { Card, CardTitle } from '@/components/ui/card';
import { formatCount } from '@/components/ui/format';
import { Skeleton } from '@/components/ui/skeleton';
import { useTrendingPosts, useTrendingTags } from '@/lib/client/queries/widgets';
import { UserSearch } from './user-search';

const counted = (n: number, noun: string) => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;

const ListSkeleton = ({ rows }: { rows: number }) => (
  <div className="mt-4 flex flex-col gap-3">
    {Array.from({ length: rows }, (_, i) => (
      <Skeleton key={i} className="h-9 w-full" />
    ))}
  </div>
);

export const TrendingTags = ({ limit = 8 }: { limit?: number }) => {
  const tags = useTrendingTags(limit);
  return (
    <Card aria-labelledby="trending-tags-title" className="p-5 sm:p-5">
      <CardTitle id="trending-tags-title">Trending tags</CardTitle>
      {tags.isPending ? (
        <ListSkeleton rows={4} />
      ) : tags.isError ? (
        <p className="mt-3 text-sm text-ink-muted">Trending tags did not load.</p>
      ) : tags.data.length === 0 ? (
        <p className="mt-3 text-sm text-ink-muted">No tags yet. Add a #tag to a post to start one.</p>
      ) : (
        <ol className="mt-3 flex flex-col">
          {tags.data.map((t, i) => (
            <li key={t.tag}>
              <Link href={`/tags/${encodeURIComponent(t.tag)}`} className="-mx-2 flex items-baseline gap-3 rounded-lg px-2 py-2 hover:bg-elevated">
                <span aria-hidden="true" className="w-4 text-xs text-ink-faint tabular-nums">
                  {i + 1}
                </span>
                <span className="min-w-0 flex-1 truncate text-sm font-medium text-ink">#{t.tag}</span>
                <span className="text-xs text-ink-muted tabular-nums">
                  {formatCount(t.postsCount)} {t.postsCount === 1 ? 'post' : 'posts'}
                </span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
};

export const TrendingPosts = ({ limit = 5 }: { limit?: number }) => {
  const posts = useTrendingPosts(limit);
  return (
    <Card aria-labelledby="trending-posts-title" className="p-5 sm:p-5">
      <CardTitle id="trending-posts-title">Trending posts</CardTitle>
      {posts.isPending ? (
        <ListSkeleton rows={3} />
      ) : posts.isError ? (
        <p className="mt-3 text-sm text-ink-muted">Trending posts did not load.</p>
      ) : posts.data.length === 0 ? (
        <p className="mt-3 text-sm text-ink-muted">Nothing is trending yet.</p>
      ) : (
        <ul className="mt-3 flex flex-col gap-1">
          {posts.data.map((p) => (
            <li key={p.id}>
              <Link href={`/posts/${encodeURIComponent(p.id)}`} className="-mx-2 block rounded-lg px-2 py-2 hover:bg-elevated">
                <span className="block text-xs text-ink-muted">@{p.author.username}</span>
                <span className="line-clamp-2 text-sm text-ink">{p.content}</span>
                <span className="mt-1 block text-xs text-ink-faint tabular-nums">
                  {counted(p.reactions, 'like')} · {counted(p.comments, 'comment')} · {counted(p.shares, 'share')}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
};

/** The feed's side column on wide screens: people search, trending tags and posts. */
export const TrendingSidebar = () => (
  <aside aria-label="Trending" className="hidden flex-col gap-4 lg:flex">
    <UserSearch />
    <TrendingTags />
    <TrendingPosts />
  </aside>
);
