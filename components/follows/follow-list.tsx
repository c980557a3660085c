'use client';

import Link from 'next/link';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatCount } from '@/components/ui/format';
import { UserIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { UserIdentity } from '@/components/ui/user-identity';
import { describeError } from '@/lib/client/queries/errors';
import { useFollowers, useFollowing, type TFollowUser } from '@/lib/client/queries/follows';
import type { TUser } from '@/lib/contracts/users';
import { profileHref } from '@/lib/users/links';
import { FollowButton } from './follow-button';

const UserRows = ({ users, total }: { users: TFollowUser[]; total: number }) => (
  <div className="flex flex-col gap-2">
    <ul className="flex flex-col divide-y divide-line rounded-2xl border border-line bg-surface">
      {users.map((u) => (
        <li key={u.id} className="flex items-center gap-3 px-4 py-3">
          <Link href={profileHref(u)} className="flex min-w-0 flex-1 items-center gap-3 rounded-lg hover:underline">
            <UserIdentity user={u} />
          </Link>
          <FollowButton userId={u.id} username={u.username} />
        </li>
      ))}
    </ul>
    {total > users.length && (
      <p className="text-center text-xs text-ink-faint">
        Showing {formatCount(users.length)} of {formatCount(total)}.
      </p>
    )}
  </div>
);

/** A profile's followers or the profiles it follows, each with its Follow button. */
export const FollowList = ({ kind, user }: { kind: 'followers' | 'following'; user: TUser }) => {
  const followers = useFollowers(kind === 'followers' ? user.id : undefined);
  const following = useFollowing(kind === 'following' ? user.id : undefined);
  const query = kind === 'followers' ? followers : following;
  if (query.isPending) {
    return (
      <div role="status" aria-label={`Loading ${kind}`} className="flex flex-col gap-2">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-16 w-full rounded-xl" />
        ))}
      </div>
    );
  }
  if (query.isError) return <ErrorState message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />;
  const users = query.data.users;
  if (users.length === 0) {
    return (
      <EmptyState
        icon={<UserIcon />}
        headingLevel={3}
        title={kind === 'followers' ? 'No followers yet' : 'Not following anyone yet'}
        description={kind === 'followers' ? 'When players follow this profile, they are listed here.' : 'Players this profile follows are listed here.'}
      />
    );
  }
  return <UserRows users={users} total={query.data.total} />;
};
