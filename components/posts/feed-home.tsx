'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useNewPosts } from '@/components/realtime/use-new-posts';
import { LinkButton } from '@/components/ui/button';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { FeedIcon, MarketsIcon, PoolsIcon, UserIcon } from '@/components/ui/icons';
import { StatsStrip } from '@/components/stats/stats-strip';
import { Skeleton } from '@/components/ui/skeleton';
import { tabPanelProps } from '@/components/ui/tabs';
import { TrendingSidebar } from '@/components/widgets/trending-sidebar';
import { useFeed, type TFeedFilter } from '@/lib/client/queries/posts';
import { useSession } from '@/lib/client/queries/users';
import { feedViewNeedsSignIn, feedViewSearch, parseFeedView, type TFeedView } from '@/lib/posts/feed-filter';
import { Composer } from './composer';
import { FeedFilters } from './feed-filters';
import { NewPostsBanner } from './new-posts-banner';
import { PostList } from './post-list';

const FEATURES = [
  { icon: <MarketsIcon />, title: 'Prediction markets', text: 'Buy YES or NO on questions about the game world.' },
  { icon: <PoolsIcon />, title: 'NPC-run pools', text: 'Back the traders you believe in with a deposit.' },
  { icon: <UserIcon />, title: 'A social floor', text: 'Follow players, post your calls, climb the leaderboard.' },
];

const Welcome = () => (
  <section aria-labelledby="welcome-title" className="relative overflow-hidden rounded-2xl border border-line bg-surface p-6 sm:p-8">
    <div
      aria-hidden="true"
      className="pointer-events-none absolute inset-0 bg-[radial-gradient(80%_120%_at_100%_0%,#8b93ff2e,transparent_60%),radial-gradient(60%_100%_at_0%_100%,#3ddc971f,transparent_60%)]"
    />
    <div className="relative">
      <p className="text-xs font-semibold tracking-widest text-accent uppercase">Play money, real opinions</p>
      <h2 id="welcome-title" className="mt-2 max-w-xl text-2xl font-semibold tracking-tight text-ink sm:text-3xl">
        Trade what you think will happen. Risk nothing real.
      </h2>
      <p className="mt-3 max-w-xl text-sm leading-relaxed text-ink-muted sm:text-base">
        Every new player gets a starting balance of virtual currency to trade markets, back pools and show off their track record.
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <LinkButton href="/sign-in">Sign in to start</LinkButton>
        <LinkButton href="/markets" variant="secondary">
          Browse markets
        </LinkButton>
      </div>
      <ul className="mt-8 grid gap-4 sm:grid-cols-3">
        {FEATURES.map((f) => (
          <li key={f.title} className="flex gap-3">
            <span aria-hidden="true" className="mt-0.5 text-accent">
              {f.icon}
            </span>
            <span>
              <span className="block text-sm font-medium text-ink">{f.title}</span>
              <span className="block text-sm text-ink-muted">{f.text}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  </section>
);

const FEED_LABELS: Record<TFeedView, string> = {
  everyone: 'Latest posts',
  players: 'Latest posts by players',
  mine: 'Posts about your markets',
  following: 'Posts from people you follow',
  favorites: 'Posts from your favorite profiles',
};

/** The phone's stats (the page shows them above the feed from 640 px up): after the first post, foldable. */
const PHONE_STATS = { label: 'World stats', className: 'sm:hidden', node: <StatsStrip isCollapsible /> };

/**
 * Everyone, Players and My markets: the latest posts, filtered, with NPC trade receipts folded
 * into digest lines. Everyone has the "N new posts" pill for posts by others that went live since
 * loading (the pill counts every new post; a filtered feed would show only some).
 */
const LatestFeed = ({ filter }: { filter: TFeedFilter }) => {
  const feed = useFeed('latest', { filter });
  const session = useSession();
  const loadedIds = useMemo(() => new Set((feed.data ?? []).map((p) => p.id)), [feed.data]);
  const newPosts = useNewPosts({ loadedIds, myUserId: session.user?.id });
  const topRef = useRef<HTMLDivElement>(null);

  const showNewPosts = async () => {
    await newPosts.show(() => feed.refetch());
    const top = topRef.current;
    if (!top) return;
    const isReduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    top.scrollIntoView({ block: 'start', behavior: isReduced ? 'auto' : 'smooth' });
    // The pill is gone: keep keyboard focus at the top of the feed rather than lose it.
    top.focus({ preventScroll: true });
  };

  return (
    <div ref={topRef} tabIndex={-1} className="flex scroll-mt-20 flex-col outline-none">
      <NewPostsBanner count={filter === 'everyone' ? newPosts.count : 0} isCapped={newPosts.isCapped} isLoading={newPosts.isShowing} onShow={showNewPosts} />
      <PostList
        query={feed}
        label={FEED_LABELS[filter]}
        foldReceipts
        afterFirst={PHONE_STATS}
        empty={
          filter === 'mine' ? (
            <EmptyState
              icon={<FeedIcon />}
              title="Nothing about your markets yet"
              description="Nobody has posted about the markets and tickers you hold or have orders in. Everyone shows every post."
            />
          ) : filter === 'players' ? (
            <EmptyState icon={<FeedIcon />} title="No player has posted yet" description="Everyone shows the NPC actors' posts too." />
          ) : (
            <EmptyState icon={<FeedIcon />} title="No posts yet" description="Be the first: share your call on a market, with a #tag so others can find it." />
          )
        }
      />
    </div>
  );
};

/** A feed that needs a signed-in reader (the tabs only offer it then), with its own empty state. */
const PersonalFeed = ({
  kind,
  label,
  empty,
  onShowLatest,
}: {
  kind: 'following' | 'favorites';
  label: string;
  empty: { title: string; description: string };
  onShowLatest: () => void;
}) => {
  const feed = useFeed(kind);
  return (
    <PostList
      query={feed}
      label={label}
      foldReceipts
      afterFirst={PHONE_STATS}
      empty={
        <EmptyState
          icon={<UserIcon />}
          title={empty.title}
          description={empty.description}
          action={
            <Button variant="secondary" onClick={onShowLatest}>
              Browse the latest posts
            </Button>
          }
        />
      }
    />
  );
};

/**
 * The home feed: the composer (or the welcome), the filter tabs and the feed they choose. The
 * filter lives in the URL (`?filter=players`, lib/posts/feed-filter) and in the React Query key
 * (postKeys.feed). Signed out, the tabs are Everyone and Players, and a signed-in view in the URL
 * shows Everyone until a session says otherwise.
 */
export const FeedHome = () => {
  const session = useSession();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const here = params.toString();
  // A change not yet in the address (router.replace lands a moment later) shows at once, and a
  // second change builds on it rather than on the address it was made from.
  const [pending, setPending] = useState<{ view: TFeedView; from: string } | null>(null);
  const urlView = pending && pending.from === here ? pending.view : parseFeedView(params);
  const view: TFeedView = feedViewNeedsSignIn(urlView) && !session.isSignedIn ? 'everyone' : urlView;
  // Replace, not push: switching the filter should not fill the history.
  const onView = useCallback(
    (next: TFeedView) => {
      setPending({ view: next, from: here });
      router.replace(`${pathname}${feedViewSearch(here, next)}`, { scroll: false });
    },
    [router, pathname, here],
  );
  const showEveryone = () => onView('everyone');
  // A signed-in view waits for the session rather than flash Everyone, once: a guest's session read
  // (401) is read again whenever a component that uses it mounts, so waiting again then would
  // unmount the feed, whose mount reads it again: a loop that never showed the feed.
  const isSessionKnown = session.dataUpdatedAt > 0 || session.errorUpdatedAt > 0;
  const isWaiting = !isSessionKnown && session.isPending && feedViewNeedsSignIn(urlView);
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="flex min-w-0 flex-col gap-5">
        {session.isPending ? (
          <Skeleton className="h-36 w-full rounded-2xl" />
        ) : session.user ? (
          <Composer user={session.user} />
        ) : (
          <Welcome />
        )}
        <FeedFilters view={isWaiting ? urlView : view} isSignedIn={session.isSignedIn || isWaiting} onChange={onView} />
        <div {...tabPanelProps('feed', isWaiting ? urlView : view)} tabIndex={0} className="rounded-2xl outline-none focus-visible:ring-2 focus-visible:ring-accent/40">
          {isWaiting ? (
            <Skeleton className="h-40 w-full rounded-2xl" />
          ) : view === 'following' ? (
            <PersonalFeed
              kind="following"
              label={FEED_LABELS.following}
              empty={{
                title: 'Nothing from people you follow yet',
                description: 'Follow players from their profiles, or from a post, and their posts and reposts show up here.',
              }}
              onShowLatest={showEveryone}
            />
          ) : view === 'favorites' ? (
            <PersonalFeed
              kind="favorites"
              label={FEED_LABELS.favorites}
              empty={{ title: 'No favorites yet', description: 'Star a profile with its Favorite button and its posts show up here.' }}
              onShowLatest={showEveryone}
            />
          ) : (
            <LatestFeed key={view} filter={view} />
          )}
        </div>
      </div>
      <TrendingSidebar />
    </div>
  );
};
