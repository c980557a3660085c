/**
 * Accounts in the browser: the signed-in user, public profiles, balance history, search,
 * onboarding helpers and the web session (sign in / sign out). queryOptions factories own every
 * query key; hooks and invalidations go through them. I/O: the typed client only.
 */
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { flattenUnique } from '@/lib/client/pages';
import { api } from '@/lib/client/api';
import type { TEndpointInput, TEndpointResponse } from '@/lib/contracts/endpoint';
import { authDevSignIn, authSession, authSignOut } from '@/lib/contracts/system';
import {
  onboardingCheckUsername,
  onboardingGenerateProfile,
  usersBalance,
  usersByUsername,
  usersMe,
  usersSearch,
  usersUpdateProfile,
  type TUser,
} from '@/lib/contracts/users';
import { isValidUsername } from '@/lib/users/names';
import { hasErrorCode } from './errors';

const keys = {
  all: ['users'] as const,
  me: () => [...keys.all, 'me'] as const,
  profiles: () => [...keys.all, 'profile'] as const,
  profile: (username: string) => [...keys.profiles(), username.toLowerCase()] as const,
  balance: (userId: string) => [...keys.all, 'balance', userId] as const,
  search: (q: string) => [...keys.all, 'search', q] as const,
  usernameCheck: (username: string) => ['onboarding', 'check-username', username] as const,
};

/** The users keys, for other domains' invalidations (onboarding changes the user and their profile). */
export const userKeys = keys;

/** A value that settles `delayMs` after the last change (typing-driven queries). */
export function useDebouncedValue<T>(value: T, delayMs: number) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(t);
  }, [value, delayMs]);
  return settled;
}

// ---------------------------------------------------------------------------------------------
// The signed-in user

export function getMeQueryOptions() {
  return queryOptions({
    queryKey: keys.me(),
    queryFn: async () => (await api(usersMe)).user,
  });
}

export function useMe() {
  return useQuery(getMeQueryOptions());
}

/**
 * The session as the UI sees it: signed in (with the user), signed out (the API answered
 * UNAUTHORIZED), still loading, or failed for another reason.
 */
export function useSession() {
  const query = useMe();
  const isSignedOut = hasErrorCode(query.error, 'UNAUTHORIZED');
  return {
    ...query,
    user: query.data,
    isSignedIn: !!query.data,
    isSignedOut,
    /** An error other than "not signed in". */
    failure: isSignedOut ? null : query.error,
  };
}

// ---------------------------------------------------------------------------------------------
// Public profiles

export function getProfileQueryOptions(username: string) {
  return queryOptions({
    queryKey: keys.profile(username),
    queryFn: async () => (await api(usersByUsername, { params: { username } })).user,
  });
}

export function useProfile(username: string) {
  return useQuery(getProfileQueryOptions(username));
}

// ---------------------------------------------------------------------------------------------
// Balance and transactions (owner only), paged by offset

export const BALANCE_PAGE_SIZE = 25;

type TBalancePage = TEndpointResponse<typeof usersBalance>;
export type TTransaction = TBalancePage['transactions'][number];

export function getBalanceQueryOptions(userId: string) {
  return infiniteQueryOptions({
    queryKey: keys.balance(userId),
    queryFn: ({ pageParam }) => api(usersBalance, { params: { userId }, query: { limit: BALANCE_PAGE_SIZE, offset: pageParam } }),
    initialPageParam: 0,
    // The API sends no total: a short page means there is nothing older.
    getNextPageParam: (last, pages) =>
      last.transactions.length < BALANCE_PAGE_SIZE ? undefined : pages.reduce((n, p) => n + p.transactions.length, 0),
  });
}

/** Newest first. Offsets shift when a transaction lands between pages, so rows are de-duplicated by id. */
const selectBalance = (data: InfiniteData<TBalancePage, number>) => {
  const first = data.pages[0]!;
  const transactions = flattenUnique(data.pages, (page) => page.transactions, (t) => t.id);
  return {
    balance: first.balance,
    totalDeposited: first.totalDeposited,
    totalWithdrawn: first.totalWithdrawn,
    lifetimePnL: first.lifetimePnL,
    account: first.account,
    transactions,
    /** balanceAfter, oldest first, as plain numbers: only for plotting, never for arithmetic. */
    balanceSeries: transactions.map((t) => Number(t.balanceAfter)).reverse(),
  };
};

export function useBalance(userId: string | undefined) {
  return useInfiniteQuery({ ...getBalanceQueryOptions(userId ?? ''), enabled: !!userId, select: selectBalance });
}

// ---------------------------------------------------------------------------------------------
// Search

export function getUserSearchQueryOptions(q: string) {
  return queryOptions({
    queryKey: keys.search(q),
    queryFn: async () => (await api(usersSearch, { query: { q, limit: 10 } })).users,
  });
}

/** Searches as the user types (debounced); idle until there are two characters. */
export function useUserSearch(q: string) {
  const term = useDebouncedValue(q.trim(), 300);
  const isEnabled = term.length >= 2;
  const query = useQuery({ ...getUserSearchQueryOptions(term), enabled: isEnabled, placeholderData: keepPreviousData });
  return { ...query, term, isEnabled, isSettling: term !== q.trim() };
}

// ---------------------------------------------------------------------------------------------
// Onboarding

export function getUsernameCheckQueryOptions(username: string) {
  return queryOptions({
    queryKey: keys.usernameCheck(username),
    queryFn: () => api(onboardingCheckUsername, { query: { username } }),
    staleTime: 5_000,
  });
}

export type TUsernameStatus =
  | { state: 'unchanged' }
  | { state: 'invalid'; reason: string }
  | { state: 'checking' }
  | { state: 'available' }
  | { state: 'unavailable'; reason: string }
  | { state: 'error' };

/**
 * Live availability of a wished username: checked locally for shape first, then (debounced)
 * against the server. The current username needs no check.
 */
export function useCheckUsername(username: string, currentUsername: string | undefined): TUsernameStatus {
  const wish = username.trim();
  const settled = useDebouncedValue(wish, 400);
  const isUnchanged = wish === currentUsername;
  const isWellFormed = isValidUsername(wish);
  const query = useQuery({
    ...getUsernameCheckQueryOptions(settled),
    enabled: !isUnchanged && isWellFormed && settled === wish,
  });
  if (isUnchanged) return { state: 'unchanged' };
  if (!isWellFormed) return { state: 'invalid', reason: 'Use 3 to 20 letters, digits or underscores.' };
  if (settled !== wish || query.isPending) return { state: 'checking' };
  if (query.isError) return { state: 'error' };
  return query.data.available
    ? { state: 'available' }
    : { state: 'unavailable', reason: query.data.reason ?? 'That username is not available.' };
}

/** A random suggestion (a mutation: every click asks for a fresh one). */
export function useGenerateProfile() {
  return useMutation({ mutationFn: () => api(onboardingGenerateProfile) });
}

// ---------------------------------------------------------------------------------------------
// Profile updates

type TUpdateProfileInput = NonNullable<TEndpointInput<typeof usersUpdateProfile>['body']>;

export type TProfileFormValues = { displayName: string; username: string; bio: string; profileImageUrl: string };

export function toProfileFormValues(user: TUser): TProfileFormValues {
  return {
  displayName: user.displayName,
  username: user.username,
  bio: user.bio ?? '',
  profileImageUrl: user.profileImageUrl ?? '',
};
}

/** The update body for a form: blank bio and image clear the field; an unchanged username is left out. */
export function buildProfileUpdate(user: TUser, values: TProfileFormValues): TUpdateProfileInput {
  const body: TUpdateProfileInput = {
    displayName: values.displayName.trim(),
    bio: values.bio.trim() === '' ? null : values.bio,
    profileImageUrl: values.profileImageUrl.trim() === '' ? null : values.profileImageUrl.trim(),
  };
  const username = values.username.trim();
  if (username !== user.username) body.username = username;
  return body;
}

export function useUpdateProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ userId, body }: { userId: string; body: TUpdateProfileInput }) =>
      (await api(usersUpdateProfile, { params: { userId }, body })).user,
    onSuccess: async (user) => {
      qc.setQueryData(getMeQueryOptions().queryKey, user);
      await Promise.all([
        qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
        qc.invalidateQueries({ queryKey: keys.profiles() }),
      ]);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Web session. Signing in or out changes who every cached answer was for, so all queries are
// reset (data dropped, active ones refetched), not merely marked stale.

export function useDevSignIn() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (username: string) => api(authDevSignIn, { body: { username } }),
    onSuccess: () => qc.resetQueries(),
  });
}

export function useTokenSignIn() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api(authSession, { body: { token } }),
    onSuccess: () => qc.resetQueries(),
  });
}

/**
 * Where a fresh session lands: the onboarding wizard while the player's profile is not complete
 * (the sign-in answer carries only id and username, so the user is read), else `fallback`.
 */
export function useSignedInDestination() {
  const qc = useQueryClient();
  return async (fallback: string) => {
    const me = await qc.fetchQuery(getMeQueryOptions()).catch(() => null);
    return me && !me.profileComplete ? '/onboarding' : fallback;
  };
}

export function useSignOut() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api(authSignOut),
    onSuccess: () => qc.resetQueries(),
  });
}
