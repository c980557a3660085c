'use client';

import { useId, useState } from 'react';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { SearchIcon, UsersIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { RelativeTime } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, tabPanelProps } from '@/components/ui/tabs';
import { describeError } from '@/lib/client/queries/errors';
import { GROUP_ERROR_MESSAGES, useAcceptInvite, useDeclineInvite, useGroupInvites, useGroups, useMyGroups, type TGroupInvite } from '@/lib/client/queries/groups';
import { useDebouncedValue, useSession } from '@/lib/client/queries/users';
import { GroupRow } from './group-row';
import { MembershipButton } from './membership-button';

type TTab = 'discover' | 'mine' | 'invites';
const TAB_ID = 'groups';

const ListSkeleton = ({ label }: { label: string }) => (
  <div role="status" aria-label={label} className="flex flex-col gap-3">
    {[0, 1, 2].map((i) => (
      <Skeleton key={i} className="h-24 w-full rounded-2xl" />
    ))}
  </div>
);

const Discover = () => {
  const id = useId();
  const [q, setQ] = useState('');
  const search = useDebouncedValue(q.trim(), 300);
  const groups = useGroups(search);
  return (
    <div className="flex flex-col gap-4">
      <div role="search" className="relative">
        <label htmlFor={id} className="sr-only">
          Search groups
        </label>
        <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-ink-faint">
          <SearchIcon className="size-4" />
        </span>
        <Input id={id} type="search" placeholder="Search groups by name…" autoComplete="off" className="pl-9" value={q} onChange={(e) => setQ(e.target.value)} />
      </div>
      {groups.isPending ? (
        <ListSkeleton label="Loading groups" />
      ) : groups.isError ? (
        <ErrorState message={describeError(groups.error)} onRetry={() => groups.refetch()} isRetrying={groups.isFetching} />
      ) : groups.data.groups.length === 0 ? (
        <EmptyState icon={<UsersIcon />} headingLevel={3} title={search ? `No group matches “${search}”` : 'No groups yet'} description="Groups are run by NPC actors: organizations, tiers of traders and themes. New ones appear as the game goes on." />
      ) : (
        <ul aria-label={search ? `Groups matching ${search}` : 'Groups'} aria-busy={groups.isPlaceholderData || undefined} className="flex flex-col gap-3">
          {groups.data.groups.map((g) => (
            <GroupRow key={g.id} group={g} action={<MembershipButton group={g} />} />
          ))}
        </ul>
      )}
    </div>
  );
};

const MyGroups = ({ onDiscover }: { onDiscover: () => void }) => {
  const groups = useMyGroups();
  if (groups.isPending) return <ListSkeleton label="Loading your groups" />;
  if (groups.isError) return <ErrorState message={describeError(groups.error)} onRetry={() => groups.refetch()} isRetrying={groups.isFetching} />;
  if (groups.data.groups.length === 0) {
    return (
      <EmptyState
        icon={<UsersIcon />}
        headingLevel={3}
        title="You are not in a group yet"
        description="Join an open group to talk with its members, or accept an invite."
        action={
          <Button variant="secondary" onClick={onDiscover}>
            Discover groups
          </Button>
        }
      />
    );
  }
  return (
    <ul aria-label="Your groups" className="flex flex-col gap-3">
      {groups.data.groups.map((g) => (
        <GroupRow key={g.id} group={g} action={<MembershipButton group={g} />} />
      ))}
    </ul>
  );
};

const InviteRow = ({ invite }: { invite: TGroupInvite }) => {
  const accept = useAcceptInvite();
  const decline = useDeclineInvite();
  const error = accept.error ?? decline.error;
  const isBusy = accept.isPending || decline.isPending;
  return (
    <GroupRow
      group={invite.group}
      action={
        <span className="flex gap-2">
          <Button variant="ghost" size="sm" aria-label={`Decline the invite to ${invite.group.name}`} disabled={isBusy} isLoading={decline.isPending} onClick={() => decline.mutate(invite.id)}>
            Decline
          </Button>
          <Button size="sm" aria-label={`Accept the invite to ${invite.group.name}`} disabled={isBusy} isLoading={accept.isPending} onClick={() => accept.mutate(invite.id)}>
            Accept
          </Button>
        </span>
      }
    >
      <p className="mt-2 text-xs text-ink-muted">
        Invited by {invite.invitedBy.displayName || invite.invitedBy.username} <RelativeTime iso={invite.createdAt} />
        {invite.reason ? ` · ${invite.reason}` : ''}
      </p>
      {error && (
        <p role="alert" className="mt-2 text-sm text-down">
          {describeError(error, GROUP_ERROR_MESSAGES)}
        </p>
      )}
    </GroupRow>
  );
};

const Invites = ({ invites }: { invites: ReturnType<typeof useGroupInvites> }) => {
  if (invites.isPending) return <ListSkeleton label="Loading invites" />;
  if (invites.isError) return <ErrorState message={describeError(invites.error)} onRetry={() => invites.refetch()} isRetrying={invites.isFetching} />;
  if (invites.data.length === 0) {
    return (
      <EmptyState
        icon={<UsersIcon />}
        headingLevel={3}
        title="No invites"
        description="Invite-only groups invite players whose trades and follows fit them. Invites you get show up here."
      />
    );
  }
  return (
    <ul aria-label="Your invites" className="flex flex-col gap-3">
      {invites.data.map((i) => (
        <InviteRow key={i.id} invite={i} />
      ))}
    </ul>
  );
};

/** The groups page: Discover (search and join), My groups, and Invites to accept or decline. */
export const GroupsHub = () => {
  const session = useSession();
  const [tab, setTab] = useState<TTab>('discover');
  const invites = useGroupInvites({ isEnabled: session.isSignedIn });
  const pending = invites.data?.length ?? 0;
  const tabs = [
    { value: 'discover' as const, label: 'Discover' },
    { value: 'mine' as const, label: 'My groups' },
    { value: 'invites' as const, label: pending > 0 ? `Invites (${pending})` : 'Invites' },
  ];

  const needsSignIn = tab !== 'discover' && !session.isSignedIn;
  return (
    <>
      <PageHeader title="Groups" description="Communities run by NPC actors: organizations, trader tiers and themes, each with its own chat." />
      <Tabs label="Groups" idPrefix={TAB_ID} value={tab} tabs={tabs} onChange={setTab} className="mb-5" />
      <div {...tabPanelProps(TAB_ID, tab)} tabIndex={0} className="outline-none">
        {tab === 'discover' ? (
          <Discover />
        ) : session.isPending ? (
          <ListSkeleton label="Loading" />
        ) : needsSignIn ? (
          session.failure ? (
            <Notice tone="error">{describeError(session.failure)}</Notice>
          ) : (
            <SignInPrompt icon={<UsersIcon />} title={tab === 'mine' ? 'Sign in to see your groups' : 'Sign in to see your invites'} description="Join groups, answer invites and talk in group chats." />
          )
        ) : tab === 'mine' ? (
          <MyGroups onDiscover={() => setTab('discover')} />
        ) : (
          <Invites invites={invites} />
        )}
      </div>
    </>
  );
};
