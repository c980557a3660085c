'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useRef, useState } from 'react';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { useNewPosts } from '@/components/realtime/use-new-posts';
import { LinkButton } from '@/components/ui/button';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { FeedIcon, MarketsIcon, PoolsIcon, UserIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, tabPanelProps } from '@/components/ui/tabs';
import { TrendingSidebar } from '@/components/widgets/trending-sidebar';
import { useFeed, type TFeedFilter } from '@/lib/client/queries/posts';
import { useSession } from '@/lib/client/queries/users';
import { Composer } from './composer';
import { feedFilterSearch, FeedFilters, parseFeedFilter } from './feed-filters';
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

type TTab = 'following' | 'latest' | 'favorites';

const TABS = [
  { value: 'following', label: 'Following' },
  { value: 'latest', label: 'Latest' },
  { value: 'favorites', label: 'Favorites' },
] as const;

const isFiltered = (f: TFeedFilter) => !!(f.hideNpcs || f.held);

/**
 * Latest posts, with the "N new posts" pill for posts by others that went live since loading (not
 * while filtered: the pill counts every new post, the filtered feed only some).
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
      <NewPostsBanner count={isFiltered(filter) ? 0 : newPosts.count} isCapped={newPosts.isCapped} isLoading={newPosts.isShowing} onShow={showNewPosts} />
      <PostList
        query={feed}
        label="Latest posts"
        empty={
          isFiltered(filter) ? (
            <EmptyState icon={<FeedIcon />} title="No posts match these filters" description={filteredEmpty(filter)} />
          ) : (
            <EmptyState icon={<FeedIcon />} title="No posts yet" description="Be the first: share your call on a market, with a #tag so others can find it." />
          )
        }
      />
    </div>
  );
};

const filteredEmpty = (f: TFeedFilter) =>
  f.held
    ? 'Nobody has posted about the markets and tickers you hold yet. Turn the filter off to read everything.'
    : 'No player has posted here yet. Turn "Hide NPCs" off to read the NPC actors too.';

/** A feed that needs a signed-in reader: a sign-in prompt otherwise, and its own empty state. */
const PersonalFeed = ({
  kind,
  label,
  signedOut,
  empty,
  onShowLatest,
  filter = {},
}: {
  kind: 'following' | 'favorites';
  filter?: TFeedFilter;
  label: string;
  signedOut: { title: string; description: string };
  empty: { title: string; description: string };
  onShowLatest: () => void;
}) => {
  const session = useSession();
  const feed = useFeed(kind, { isEnabled: session.isSignedIn, filter });
  if (session.isPending) return <Skeleton className="h-40 w-full rounded-2xl" />;
  if (!session.isSignedIn) return <SignInPrompt title={signedOut.title} description={signedOut.description} />;
  return (
    <PostList
      query={feed}
      label={label}
      empty={
        <EmptyState
          icon={<UserIcon />}
          title={isFiltered(filter) ? 'No posts match these filters' : empty.title}
          description={isFiltered(filter) ? filteredEmpty(filter) : empty.description}
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

const FollowingFeed = ({ onShowLatest, filter }: { onShowLatest: () => void; filter: TFeedFilter }) => (
  <PersonalFeed
    kind="following"
    filter={filter}
    label="Posts from people you follow"
    signedOut={{ title: 'See posts from people you follow', description: 'Sign in, follow players and NPC actors, and their posts and reposts gather here.' }}
    empty={{
      title: 'Nothing from people you follow yet',
      description: 'Follow players from their profiles, or from a post, and their posts and reposts show up here.',
    }}
    onShowLatest={onShowLatest}
  />
);

const FavoritesFeed = ({ onShowLatest }: { onShowLatest: () => void }) => (
  <PersonalFeed
    kind="favorites"
    label="Posts from your favorite profiles"
    signedOut={{ title: 'Your favorite profiles', description: 'Sign in and star profiles: their posts gather here.' }}
    empty={{ title: 'No favorites yet', description: 'Star a profile with its Favorite button and its posts show up here.' }}
    onShowLatest={onShowLatest}
  />
);

export const FeedHome = () => {
  const session = useSession();
  const [tab, setTab] = useState<TTab>('latest');
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const here = params.toString();
  // A flip not yet in the address (router.replace lands a moment later) shows at once, and a second
  // flip builds on it rather than on the address it was made from.
  const [pending, setPending] = useState<{ filter: TFeedFilter; from: string } | null>(null);
  const urlFilter = pending && pending.from === here ? pending.filter : parseFeedFilter(params);
  // "Only what I hold" reads the caller's positions: signed out, the URL's held=1 waits for a session.
  const filter: TFeedFilter = { hideNpcs: urlFilter.hideNpcs, held: urlFilter.held && session.isSignedIn };
  // Replace, not push: flipping a filter should not fill the history.
  const onFilter = useCallback(
    (next: TFeedFilter) => {
      setPending({ filter: next, from: here });
      router.replace(`${pathname}${feedFilterSearch(here, next)}`, { scroll: false });
    },
    [router, pathname, here],
  );
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
        <Tabs label="Feed" idPrefix="feed" value={tab} tabs={TABS} onChange={setTab} />
        {tab !== 'favorites' && <FeedFilters filter={urlFilter} isSignedIn={session.isSignedIn} onChange={onFilter} />}
        <div {...tabPanelProps('feed', tab)} tabIndex={0} className="rounded-2xl outline-none focus-visible:ring-2 focus-visible:ring-accent/40">
          {tab === 'latest' ? (
            <LatestFeed filter={filter} />
          ) : tab === 'following' ? (
            <FollowingFeed onShowLatest={() => setTab('latest')} filter={filter} />
          ) : (
            <FavoritesFeed onShowLatest={() => setTab('latest')} />
          )}
        </div>
      </div>
      <TrendingSidebar />
    </div>
  );
};
