'use client';

import { useState } from 'react';
import { Button, LinkButton } from '@/components/ui/button';
import { describeError } from '@/lib/client/queries/errors';
import { FOLLOW_ERROR_MESSAGES, useFollowStatus, useToggleFollow } from '@/lib/client/queries/follows';
import { useSession } from '@/lib/client/queries/users';

/**
 * Follow / Following for another user's profile (nothing on one's own). Optimistic: the button
 * and the follower count change at once and go back if the server refuses. Signed out, it leads
 * to sign in.
 */
export const FollowButton = ({ userId, username, size = 'sm' }: { userId: string; username: string; size?: 'sm' | 'md' }) => {
  const session = useSession();
  const isSelf = session.user?.id === userId;
  const status = useFollowStatus(userId, { isEnabled: session.isSignedIn && !isSelf });
  const toggle = useToggleFollow();
  const [problem, setProblem] = useState<string | null>(null);
  const [isHovered, setIsHovered] = useState(false);

  if (isSelf) return null;
  if (session.isSignedOut) {
    return (
      <LinkButton href="/sign-in" size={size}>
        Follow
      </LinkButton>
    );
  }
  const isFollowing = status.data === true;
  const isReady = session.isSignedIn && status.isSuccess;
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Button
        size={size}
        variant={isFollowing ? 'secondary' : 'primary'}
        aria-pressed={isFollowing}
        aria-label={isFollowing ? `Following @${username}` : `Follow @${username}`}
        disabled={!isReady}
        className="min-w-24"
        onMouseEnter={() => setIsHovered(true)}
        onMouseLeave={() => setIsHovered(false)}
        onClick={() => {
          setProblem(null);
          toggle.mutate({ userId, username, follow: !isFollowing }, { onError: (e) => setProblem(describeError(e, FOLLOW_ERROR_MESSAGES)) });
        }}
      >
        {isFollowing ? (isHovered ? 'Unfollow' : 'Following') : 'Follow'}
      </Button>
      {problem && (
        <span role="alert" className="text-xs text-down">
          {problem}
        </span>
      )}
    </span>
  );
};
