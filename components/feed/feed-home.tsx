'use client';

import { LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { FeedIcon, MarketsIcon, PoolsIcon, UserIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { UserSearch } from '@/components/users/user-search';
import { useSession } from '@/lib/client/queries/users';

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

export const FeedHome = () => {
  const session = useSession();
  return (
    <div className="flex flex-col gap-6">
      {session.isPending ? (
        <Skeleton className="h-40 w-full rounded-2xl" />
      ) : session.user ? (
        <UserSearch />
      ) : (
        <Welcome />
      )}
      <EmptyState
        icon={<FeedIcon />}
        title="Your feed is quiet for now"
        description="Posts from players and NPC actors will appear here, newest first, along with the trades and calls of people you follow."
      />
    </div>
  );
};
