/**
 * Follows and favorites in the browser: whether the signed-in user follows someone, a profile's
 * followers and following, favorite profiles, and following or favoriting (follows are
 * optimistic: the button and the profile's follower count change at once and are put back if the
 * server says no). queryOptions factories own every query key; invalidations go through them and
 * through the posts and users factories (the Following and Favorites feeds, profile counts).
 * I/O: the typed client only.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { profilesFavorite, profilesFavorites, profilesUnfavorite, usersFollow, usersFollowers, usersFollowing, usersFollowStatus, usersUnfollow } from '@/lib/contracts/follows';
import type { TUser } from '@/lib/contracts/users';
import { hasErrorCode, SOCIAL_PACE_MESSAGES, type TErrorMessages } from './errors';
import { getFeedQueryOptions } from './posts';
import { getMeQueryOptions, getProfileQueryOptions } from './users';

export type TFollowUser = TEndpointResponse<typeof usersFollowers>['followers'][number];

const keys = {
  all: ['follows'] as const,
  status: (userId: string) => [...keys.all, 'status', userId] as const,
  followers: (userId: string) => [...keys.all, 'followers', userId] as const,
  following: (userId: string) => [...keys.all, 'following', userId] as const,
  /** Its own root: following someone leaves favorites alone. */
  favorites: () => ['favorites'] as const,
};

// ---------------------------------------------------------------------------------------------
// Follows

export function getFollowStatusQueryOptions(userId: string) {
  return queryOptions({
    queryKey: keys.status(userId),
    queryFn: async () => (await api(usersFollowStatus, { params: { userId } })).isFollowing,
    // Follower lists seed these (each row says whether the caller follows it): trust them a while.
    staleTime: 30_000,
  });
}

/** Puts each listed user's follow status into the cache, so the rows' buttons ask nothing. */
const seedFollowStatuses = (qc: QueryClient, list: { id: string; isFollowing: boolean }[]) => {
  for (const u of list) qc.setQueryData(keys.status(u.id), u.isFollowing);
};

/** Whether the signed-in user follows `userId`; idle when signed out or on one's own profile. */
export function useFollowStatus(userId: string | undefined, { isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getFollowStatusQueryOptions(userId ?? ''), enabled: !!userId && isEnabled });
}

export const FOLLOW_LIST_LIMIT = 100;

export function getFollowersQueryOptions(userId: string) {
  return queryOptions({
    queryKey: keys.followers(userId),
    queryFn: async ({ client }) => {
      const res = await api(usersFollowers, { params: { userId }, query: { limit: FOLLOW_LIST_LIMIT } });
      seedFollowStatuses(client, res.followers);
      return res;
    },
  });
}

export function useFollowers(userId: string | undefined) {
  return useQuery({ ...getFollowersQueryOptions(userId ?? ''), enabled: !!userId });
}

export function getFollowingQueryOptions(userId: string) {
  return queryOptions({
    queryKey: keys.following(userId),
    queryFn: async ({ client }) => {
      const res = await api(usersFollowing, { params: { userId }, query: { limit: FOLLOW_LIST_LIMIT } });
      seedFollowStatuses(client, res.following);
      return res;
    },
  });
}

export function useFollowing(userId: string | undefined) {
  return useQuery({ ...getFollowingQueryOptions(userId ?? ''), enabled: !!userId });
}

export function getFavoriteProfilesQueryOptions() {
  return queryOptions({ queryKey: keys.favorites(), queryFn: async () => (await api(profilesFavorites)).profiles });
}

export function useFavoriteProfiles({ isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getFavoriteProfilesQueryOptions(), enabled: isEnabled });
}

// ---------------------------------------------------------------------------------------------
// Following (optimistic) and favoriting

const withFollowers = (user: TUser, delta: number): TUser => ({
  ...user,
  stats: { ...user.stats, followersCount: Math.max(0, user.stats.followersCount + delta) },
});

/**
 * Follow or unfollow `userId`. The status and the profile's follower count change at once;
 * pass `username` so the profile shown under that name is updated too.
 */
export function useToggleFollow() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, follow }: { userId: string; follow: boolean; username?: string }) =>
      api(follow ? usersFollow : usersUnfollow, { params: { userId } }),
    onMutate: async ({ userId, follow, username }) => {
      const statusKey = getFollowStatusQueryOptions(userId).queryKey;
      const profileKey = username ? getProfileQueryOptions(username).queryKey : null;
      await Promise.all([qc.cancelQueries({ queryKey: statusKey }), profileKey ? qc.cancelQueries({ queryKey: profileKey }) : null]);
      const previousStatus = qc.getQueryData(statusKey);
      const previousProfile = profileKey ? qc.getQueryData(profileKey) : undefined;
      qc.setQueryData(statusKey, follow);
      if (profileKey && previousStatus !== follow) {
        qc.setQueryData(profileKey, (u: TUser | undefined) => (u ? withFollowers(u, follow ? 1 : -1) : u));
      }
      return { statusKey, profileKey, previousStatus, previousProfile };
    },
    onError: (e, { follow }, ctx) => {
      if (!ctx) return;
      // The server already agrees (followed elsewhere, or not followed any more): keep the new state.
      if ((follow && hasErrorCode(e, 'ALREADY_FOLLOWING')) || (!follow && hasErrorCode(e, 'NOT_FOUND'))) return;
      qc.setQueryData(ctx.statusKey, ctx.previousStatus);
      if (ctx.profileKey) qc.setQueryData(ctx.profileKey, ctx.previousProfile);
    },
    onSuccess: (res, { userId, username }) => {
      qc.setQueryData(getFollowStatusQueryOptions(userId).queryKey, res.following);
      if (username) {
        qc.setQueryData(getProfileQueryOptions(username).queryKey, (u: TUser | undefined) =>
          u ? { ...u, stats: { ...u.stats, followersCount: res.followersCount } } : u,
        );
      }
    },
    onSettled: (_d, _e, { username }) =>
      Promise.all([
        qc.invalidateQueries({ queryKey: keys.all }),
        qc.invalidateQueries({ queryKey: getFeedQueryOptions('following').queryKey }),
        // Both sides' counts: the followed profile and one's own (following).
        username ? qc.invalidateQueries({ queryKey: getProfileQueryOptions(username).queryKey }) : null,
        qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
      ]),
  });
}

export function useToggleFavorite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, favorite }: { userId: string; favorite: boolean }) =>
      api(favorite ? profilesFavorite : profilesUnfavorite, { params: { userId } }),
    onSettled: () =>
      Promise.all([qc.invalidateQueries({ queryKey: keys.favorites() }), qc.invalidateQueries({ queryKey: getFeedQueryOptions('favorites').queryKey })]),
  });
}

// ---------------------------------------------------------------------------------------------
// Errors

/** The sentences a failed follow or favorite shows: describeError(error, FOLLOW_ERROR_MESSAGES). */
export const FOLLOW_ERROR_MESSAGES: TErrorMessages = {
  ...SOCIAL_PACE_MESSAGES,
  CANNOT_FOLLOW_SELF: "You can't follow yourself.",
  ALREADY_FOLLOWING: 'You already follow this player.',
};
