'use client';

import Link from 'next/link';
import { useState } from 'react';
import { Conversation } from '@/components/chats/conversation';
import { Avatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button, LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { ChatIcon, UsersIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { UserIdentity } from '@/components/ui/user-identity';
import { describeError, hasErrorCode } from '@/lib/client/queries/errors';
import { useGroup, type TGroup, type TGroupMember } from '@/lib/client/queries/groups';
import { useSession } from '@/lib/client/queries/users';
import { profileHref } from '@/lib/users/links';
import { groupKindLabel, memberCountLabel } from './format';
import { MembershipButton } from './membership-button';

/** Members listed before "Show all". */
const MEMBERS_SHOWN = 12;

const GroupHeader = ({ group }: { group: TGroup }) => (
  <header className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-5 sm:flex-row sm:items-start sm:p-6">
    <div className="flex min-w-0 flex-1 items-start gap-4">
      <span aria-hidden="true">
        <Avatar name={group.organization?.ticker ?? group.name} size="lg" />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <Badge>{groupKindLabel(group)}</Badge>
          <Badge tone={group.visibility === 'open' ? 'up' : 'warn'}>{group.visibility === 'open' ? 'Open' : 'Invite only'}</Badge>
        </div>
        <h1 className="mt-2 text-2xl leading-tight font-semibold tracking-tight text-balance text-ink sm:text-3xl">{group.name}</h1>
        {group.description && <p className="mt-2 text-sm leading-relaxed text-ink-muted">{group.description}</p>}
        <p className="mt-2 text-sm text-ink-muted">
          Run by{' '}
          <Link href={profileHref(group.owner)} className="font-medium text-ink hover:underline">
            {group.owner.displayName || group.owner.username}
          </Link>{' '}
          · {memberCountLabel(group.memberCount)}
        </p>
      </div>
    </div>
    <div className="flex justify-end">
      <MembershipButton group={group} canLeave size="md" />
    </div>
  </header>
);

const Members = ({ members, total }: { members: TGroupMember[]; total: number }) => {
  const [isAll, setIsAll] = useState(false);
  const shown = isAll ? members : members.slice(0, MEMBERS_SHOWN);
  return (
    <section aria-labelledby="group-members-title" className="flex flex-col gap-3">
      <h2 id="group-members-title" className="text-base font-semibold tracking-tight text-ink">
        Members <span className="font-normal text-ink-muted tabular-nums">({total.toLocaleString('en-US')})</span>
      </h2>
      <ul aria-label="Members" className="flex flex-col gap-0.5 rounded-2xl border border-line bg-surface p-2">
        {shown.map((m) => (
          <li key={m.id}>
            <Link href={profileHref(m)} className="flex items-center gap-3 rounded-xl p-2 transition-colors hover:bg-elevated">
              <UserIdentity user={m} className="flex-1" />
              {m.role === 'owner' && <Badge tone="accent">Owner</Badge>}
            </Link>
          </li>
        ))}
      </ul>
      {members.length > MEMBERS_SHOWN && (
        <Button variant="ghost" size="sm" aria-expanded={isAll} onClick={() => setIsAll(!isAll)} className="self-start">
          {isAll ? 'Show fewer' : `Show all ${members.length}`}
        </Button>
      )}
      {isAll && total > members.length && <p className="text-xs text-ink-faint">The first {members.length} of {total.toLocaleString('en-US')} are listed.</p>}
    </section>
  );
};

const GroupSkeleton = () => (
  <div role="status" aria-label="Loading group" className="flex flex-col gap-6">
    <Skeleton className="h-4 w-24" />
    <Skeleton className="h-36 w-full rounded-2xl" />
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <Skeleton className="h-96 w-full rounded-2xl" />
      <Skeleton className="h-64 w-full rounded-2xl" />
    </div>
  </div>
);

/** A group's page: its header with Join or Leave, its chat (members only) and its members. */
export const GroupDetail = ({ groupId }: { groupId: string }) => {
  const query = useGroup(groupId);
  const session = useSession();

  if (query.isPending) return <GroupSkeleton />;
  if (query.isError) {
    if (hasErrorCode(query.error, 'GROUP_NOT_FOUND', 'NOT_FOUND', 'INVALID_PARAMETER')) {
      return (
        <EmptyState
          icon={<UsersIcon />}
          headingLevel={1}
          title="No such group"
          description="This group does not exist. It may have been closed."
          action={
            <LinkButton href="/groups" variant="secondary">
              All groups
            </LinkButton>
          }
        />
      );
    }
    return <ErrorState message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />;
  }

  const { group, members } = query.data;
  return (
    <div className="flex flex-col gap-6">
      <Link href="/groups" className="inline-flex items-center gap-1 self-start text-sm text-ink-muted hover:text-ink">
        <span aria-hidden="true">←</span> All groups
      </Link>
      <GroupHeader group={group} />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <section aria-labelledby="group-chat-title" className="flex min-w-0 flex-col gap-3">
          <h2 id="group-chat-title" className="text-base font-semibold tracking-tight text-ink">
            Group chat
          </h2>
          {group.isMember && session.isSignedIn ? (
            <Conversation key={group.chatId} chatId={group.chatId} variant="embedded" />
          ) : (
            <EmptyState
              icon={<ChatIcon />}
              headingLevel={3}
              title="Members only"
              description={
                group.visibility === 'open'
                  ? 'Join the group (above) to read its chat and write in it.'
                  : group.hasPendingInvite
                    ? 'You have an invite: accept it (above) to read the chat and write in it.'
                    : 'This group is invite-only. Its members read and write in its chat.'
              }
            />
          )}
        </section>
        <Members members={members} total={group.memberCount} />
      </div>
    </div>
  );
};
