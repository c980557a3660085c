/** Follows and favorites: following a user, the follower and following lists, favorite profiles. */
import { z } from 'zod';
import { ZSuccess, ZTimestamp, zQueryInt, ZUserIdParams } from './common';
import { defineEndpoint } from './endpoint';
import { ZUserSummary } from './users';

export const usersFollow = defineEndpoint({
  id: 'users.follow',
  method: 'POST',
  path: '/api/users/{userId}/follow',
  summary: 'Follow a user (201); not oneself, not twice',
  tag: 'follows',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'follow',
  params: ZUserIdParams,
  status: 201,
  response: z.object({ success: ZSuccess, following: z.boolean(), followersCount: z.number().int() }),
  errors: ['CANNOT_FOLLOW_SELF', 'ALREADY_FOLLOWING', 'USER_NOT_FOUND', 'USER_BLOCKED'],
});

export const usersUnfollow = defineEndpoint({
  id: 'users.unfollow',
  method: 'DELETE',
  path: '/api/users/{userId}/follow',
  summary: 'Stop following a user (404 when not following)',
  tag: 'follows',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'follow',
  params: ZUserIdParams,
  response: z.object({ success: ZSuccess, following: z.boolean(), followersCount: z.number().int() }),
  errors: ['NOT_FOUND', 'USER_NOT_FOUND'],
});

export const usersFollowStatus = defineEndpoint({
  id: 'users.followStatus',
  method: 'GET',
  path: '/api/users/{userId}/follow',
  summary: 'Whether the caller follows the user',
  tag: 'follows',
  auth: 'user',
  requires: ['read'],
  params: ZUserIdParams,
  response: z.object({ success: ZSuccess, isFollowing: z.boolean(), following: z.boolean() }),
  errors: ['USER_NOT_FOUND'],
});

const ZFollowUser = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  profileImageUrl: z.string().nullable(),
  isActor: z.boolean(),
  followedAt: ZTimestamp,
  /** Whether the caller follows this user (false when signed out): lists need no request per row. */
  isFollowing: z.boolean(),
});

const ZListQuery = z.object({ limit: zQueryInt({ default: 50, min: 1, max: 200 }), offset: zQueryInt({ default: 0, max: 100_000 }) });

const followListResponse = <K extends string>(key: K) =>
  z.object({ success: ZSuccess, users: z.array(ZFollowUser), count: z.number().int(), total: z.number().int() }).extend({
    [key]: z.array(ZFollowUser),
  } as Record<K, z.ZodArray<typeof ZFollowUser>>);

export const usersFollowers = defineEndpoint({
  id: 'users.followers',
  method: 'GET',
  path: '/api/users/{userId}/followers',
  summary: "A user's followers, newest first",
  tag: 'follows',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: ZUserIdParams,
  query: ZListQuery,
  response: followListResponse('followers'),
  errors: ['USER_NOT_FOUND'],
});

export const usersFollowing = defineEndpoint({
  ...usersFollowers,
  id: 'users.following',
  path: '/api/users/{userId}/following',
  summary: 'The users a user follows, newest first',
  response: followListResponse('following'),
});

export const profilesFavorite = defineEndpoint({
  id: 'profiles.favorite',
  method: 'POST',
  path: '/api/profiles/{userId}/favorite',
  summary: 'Favorite a profile (its posts appear in the favorites feed)',
  tag: 'follows',
  auth: 'user',
  requires: ['social'],
  params: ZUserIdParams,
  response: z.object({ success: ZSuccess, favorited: z.boolean() }),
  errors: ['USER_NOT_FOUND', 'VALIDATION_ERROR'],
});

export const profilesUnfavorite = defineEndpoint({ ...profilesFavorite, id: 'profiles.unfavorite', method: 'DELETE', summary: 'Remove a profile from favorites' });

const ZFavoriteProfile = ZUserSummary.extend({ favoritedAt: ZTimestamp });

export const profilesFavorites = defineEndpoint({
  id: 'profiles.favorites',
  method: 'GET',
  path: '/api/profiles/favorites',
  summary: "The caller's favorited profiles",
  tag: 'follows',
  auth: 'user',
  requires: ['read'],
  response: z.object({
    success: ZSuccess,
    profiles: z.array(ZFavoriteProfile),
    favorites: z.array(ZFavoriteProfile),
    count: z.number().int(),
  }),
});

export const followsEndpoints = [
  usersFollow,
  usersUnfollow,
  usersFollowStatus,
  usersFollowers,
  usersFollowing,
  profilesFavorite,
  profilesUnfavorite,
  profilesFavorites,
] as const;
