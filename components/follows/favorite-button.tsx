'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { describeError } from '@/lib/client/queries/errors';
import { FOLLOW_ERROR_MESSAGES, useFavoriteProfiles, useToggleFavorite } from '@/lib/client/queries/follows';
import { useSession } from '@/lib/client/queries/users';

/** Favorite / Favorited for another user's profile: its posts then appear in the Favorites feed. */
export const FavoriteButton = ({ userId, username }: { userId: string; username: string }) => {
  const session = useSession();
  const favorites = useFavoriteProfiles({ isEnabled: session.isSignedIn });
  const toggle = useToggleFavorite();
  const [problem, setProblem] = useState<string | null>(null);
  if (!session.isSignedIn || session.user?.id === userId) return null;
  const isFavorite = !!favorites.data?.some((p) => p.id === userId);
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Button
        size="md"
        variant="secondary"
        aria-pressed={isFavorite}
        aria-label={isFavorite ? `Remove @${username} from favorites` : `Add @${username} to favorites`}
        disabled={!favorites.isSuccess}
        isLoading={toggle.isPending}
        onClick={() => {
          setProblem(null);
          toggle.mutate({ userId, favorite: !isFavorite }, { onError: (e) => setProblem(describeError(e, FOLLOW_ERROR_MESSAGES)) });
        }}
      >
        {isFavorite ? '★ Favorite' : '☆ Favorite'}
      </Button>
      {problem && (
        <span role="alert" className="text-xs text-down">
          {problem}
        </span>
      )}
    </span>
  );
};
