'use client';

import { useState } from 'react';
import { Modal } from '@/components/moderation/modal';
import { Badge } from '@/components/ui/badge';
import { Button, LinkButton } from '@/components/ui/button';
import { Notice } from '@/components/ui/error-state';
import { describeError } from '@/lib/client/queries/errors';
import { GROUP_ERROR_MESSAGES, joinStateOf, useJoinGroup, useLeaveGroup, type TGroup } from '@/lib/client/queries/groups';
import { useSession } from '@/lib/client/queries/users';

const LeaveGroupDialog = ({ group, onClose }: { group: TGroup; onClose: () => void }) => {
  const leave = useLeaveGroup();
  return (
    <Modal
      title={`Leave ${group.name}?`}
      description={
        group.visibility === 'open'
          ? 'You leave its chat too. It is an open group: you can join again any time.'
          : 'You leave its chat too. It is invite-only: you would need a new invite to come back.'
      }
      onClose={onClose}
    >
      <div className="flex flex-col gap-4">
        {leave.isError && <Notice tone="error">{describeError(leave.error, GROUP_ERROR_MESSAGES)}</Notice>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" isLoading={leave.isPending} onClick={() => leave.mutate(group, { onSuccess: onClose })}>
            Leave group
          </Button>
        </div>
      </div>
    </Modal>
  );
};

/**
 * What the caller can do about a group: Join (open), Accept invite (a pending invite), nothing
 * but a note (invite-only), Leave (a member, where `canLeave`; confirmed) or a Member/Owner mark.
 * Signed out, Join leads to sign in. A refusal shows under it.
 */
export const MembershipButton = ({ group, canLeave = false, size = 'sm' }: { group: TGroup; canLeave?: boolean; size?: 'sm' | 'md' }) => {
  const session = useSession();
  const join = useJoinGroup();
  const [isLeaving, setIsLeaving] = useState(false);
  const state = joinStateOf(group, session.user?.id);

  if (session.isSignedOut) {
    return group.visibility === 'open' ? (
      <LinkButton href="/sign-in" size={size} aria-label={`Sign in to join ${group.name}`}>
        Join
      </LinkButton>
    ) : (
      <Badge>Invite only</Badge>
    );
  }
  if (!session.isSignedIn) return null;

  let control;
  if (state === 'owner') control = <Badge tone="accent">Owner</Badge>;
  else if (state === 'member')
    control = canLeave ? (
      <Button variant="secondary" size={size} aria-label={`Leave ${group.name}`} onClick={() => setIsLeaving(true)}>
        Leave
      </Button>
    ) : (
      <Badge tone="up">Member</Badge>
    );
  else if (state === 'invite-only')
    control = (
      <Badge title="Members join by invite; groups invite players whose trades and follows fit">
        Invite only
      </Badge>
    );
  else
    control = (
      <Button
        size={size}
        aria-label={state === 'accept' ? `Accept the invite to ${group.name}` : `Join ${group.name}`}
        isLoading={join.isPending}
        onClick={() => join.mutate(group.id)}
      >
        {state === 'accept' ? 'Accept invite' : 'Join'}
      </Button>
    );

  return (
    <span className="inline-flex flex-col items-end gap-1">
      {control}
      {join.isError && (
        <span role="alert" className="max-w-56 text-right text-xs text-down">
          {describeError(join.error, GROUP_ERROR_MESSAGES)}
        </span>
      )}
      {isLeaving && <LeaveGroupDialog group={group} onClose={() => setIsLeaving(false)} />}
    </span>
  );
};
