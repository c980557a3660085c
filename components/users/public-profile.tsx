'use client';

import { PnlHistoryCard } from '@/components/analytics/pnl-history-chart';
import { MessageButton } from '@/components/chats/message-button';
import { FavoriteButton } from '@/components/follows/favorite-button';
import { FollowButton } from '@/components/follows/follow-button';
import { LeagueHistory } from '@/components/leagues/league-history';
import { ModerationMenu } from '@/components/moderation/moderation-menu';
import { ReputationCard } from '@/components/reputation/reputation-card';
import { ActorCalibration } from '@/components/story/actor-calibration';
import { LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { UserIcon } from '@/components/ui/icons';
import { describeError, hasErrorCode } from '@/lib/client/queries/errors';
import { useMe, useProfile } from '@/lib/client/queries/users';
import { ProfileActivity } from './profile-activity';
import { ProfileCard, ProfileSkeleton, StatsGrid } from './profile-card';
import { TrackRecord } from './track-record';

export const PublicProfile = ({ username }: { username: string }) => {
  const profile = useProfile(username);
  const me = useMe();

  if (profile.isPending) return <ProfileSkeleton />;
  if (profile.isError) {
    if (hasErrorCode(profile.error, 'USER_NOT_FOUND', 'NOT_FOUND', 'INVALID_PARAMETER')) {
      return (
        <EmptyState
          icon={<UserIcon />}
          headingLevel={1}
          title="No player by that name"
          description={`There is no one called @${username}. They may have changed their username.`}
          action={
            <LinkButton href="/" variant="secondary">
              Back to the feed
            </LinkButton>
          }
        />
      );
    }
    return <ErrorState message={describeError(profile.error)} onRetry={() => profile.refetch()} isRetrying={profile.isFetching} />;
  }

  const user = profile.data;
  const isSelf = me.data?.id === user.id;
  return (
    <div className="flex flex-col gap-6">
      <ProfileCard
        user={user}
        actions={
          isSelf ? (
            <LinkButton href="/profile/edit" variant="secondary" size="sm">
              Edit profile
            </LinkButton>
          ) : (
            <span className="flex flex-wrap items-start gap-2">
              <FavoriteButton userId={user.id} username={user.username} />
              <FollowButton userId={user.id} username={user.username} size="md" />
              <MessageButton userId={user.id} username={user.username} />
              <ModerationMenu person={user} where={{ kind: 'profile' }} />
            </span>
          )
        }
      />
      <section aria-labelledby="stats-title" className="flex flex-col gap-3">
        <h2 id="stats-title" className="text-sm font-medium text-ink-muted">
          Stats
        </h2>
        <StatsGrid user={user} />
      </section>
      <TrackRecord userId={user.id} />
      {/* P&L over time (public; equity figures only for the player themself). */}
      <PnlHistoryCard userId={user.id} />
      {/* An NPC's calls on questions (storylines) and how they turned out. */}
      {user.isActor && <ActorCalibration actorId={user.id} />}
      <ReputationCard userId={user.id} />
      {/* NPC actors trade but are never seated in the league. */}
      {!user.isActor && <LeagueHistory userId={user.id} isOwn={isSelf} />}
      <ProfileActivity user={user} />
    </div>
  );
};
