/**
 * Points in the browser: the signed-in player's balance, history (newest first, paged by the
 * `before` cursor) and milestone checklist, and transferring points to another player by
 * username, and the waitlist's email bonus (points too: a mailed code, then its verification). queryOptions factories own every query key; hooks and invalidations go through them.
 * I/O: the typed client only.
 */
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import { flattenUnique } from '@/lib/client/pages';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { pointsHistory, pointsTransfer } from '@/lib/contracts/points';
import { usersByUsername } from '@/lib/contracts/users';
import { waitlistEmailBonus, waitlistVerifyEmailBonus } from '@/lib/contracts/waitlist';
import type { TErrorMessages } from './errors';
import { getMeQueryOptions } from './users';
import { waitlistKeys } from './waitlist';

export const POINTS_PAGE_SIZE = 25;

type TPointsPage = TEndpointResponse<typeof pointsHistory>;
export type TPointsTransaction = TPointsPage['transactions'][number];
export type TMilestoneRow = TPointsPage['milestones'][number];
export type TPointsTransferResult = TEndpointResponse<typeof pointsTransfer>;

export const pointsKeys = {
  all: ['points'] as const,
  history: (userId: string) => [...pointsKeys.all, 'history', userId] as const,
};

export function getPointsQueryOptions(userId: string) {
  return infiniteQueryOptions({
    queryKey: pointsKeys.history(userId),
    queryFn: ({ pageParam }) => api(pointsHistory, { params: { userId }, query: { limit: POINTS_PAGE_SIZE, before: pageParam } }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Balance and milestones as of the first page; the history of every loaded page, each row once. */
const selectPoints = (data: InfiniteData<TPointsPage, number | undefined>) => {
  const first = data.pages[0]!;
  return {
    points: first.points,
    milestones: first.milestones,
    transactions: flattenUnique(data.pages, (p) => p.transactions, (t) => t.id),
  };
};

export function usePoints(userId: string | undefined) {
  return useInfiniteQuery({ ...getPointsQueryOptions(userId ?? ''), enabled: !!userId, select: selectPoints });
}

const REASONS: Record<string, string> = {
  transfer_out: 'Sent to another player',
  transfer_in: 'Received from another player',
  share_verified: 'Verified share',
  'waitlist:email': 'Waitlist email bonus',
};

/**
 * A history row's reason in plain words: milestones by their checklist label, the known system
 * reasons by name, anything else (an administrator's award note) as written. Pure.
 */
export function describePointsReason(reason: string, milestones: readonly Pick<TMilestoneRow, 'milestone' | 'label'>[] = []) {
  const milestone = /^milestone:(\w+)$/.exec(reason)?.[1];
  if (milestone) {
    const label = milestones.find((m) => m.milestone === milestone)?.label;
    return `Milestone: ${label ?? milestone.replace(/_/g, ' ')}`;
  }
  return REASONS[reason] ?? reason;
}

/**
 * A whole, positive amount typed in a form, or why not. Pure.
 * Mirrors the contract: an integer from 1 to 1,000,000,000.
 */
export function parsePointsAmount(text: string): { amount: number } | { problem: string } {
  const t = text.trim().replace(/,/g, '');
  if (t === '') return { problem: 'Enter how many points to send.' };
  if (!/^\d+$/.test(t)) return { problem: 'Points are whole numbers, like 10 or 250.' };
  const amount = Number(t);
  if (amount < 1) return { problem: 'Send at least 1 point.' };
  if (amount > 1_000_000_000) return { problem: 'That is more than can be sent at once.' };
  return { amount };
}

export type TTransferInput = { username: string; amount: number; reason?: string };

/** After points moved: the history, the user (reputationPoints) and the waitlist place follow. */
const invalidatePointsEverywhere = (qc: ReturnType<typeof useQueryClient>) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: pointsKeys.all }),
    qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
    qc.invalidateQueries({ queryKey: waitlistKeys.all }),
  ]);

/** Resolves the recipient by username, then transfers. */
export function useTransferPoints() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ username, amount, reason }: TTransferInput) => {
      const { user: recipient } = await api(usersByUsername, { params: { username: username.trim().replace(/^@/, '') } });
      const result = await api(pointsTransfer, { body: { toUserId: recipient.id, amount, reason: reason?.trim() || undefined } });
      return { ...result, recipient };
    },
    onSuccess: () => invalidatePointsEverywhere(qc),
  });
}

/** Asks for the email bonus: the server mails a verification code to the address (nothing is paid yet). */
export function useRequestEmailBonus() {
  return useMutation({
    mutationFn: (email: string) => api(waitlistEmailBonus, { body: { email: email.trim() } }),
  });
}

/** Presents the mailed code: the address joins the waitlist entry and the one-time bonus is paid. */
export function useVerifyEmailBonus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api(waitlistVerifyEmailBonus, { body: { token: token.trim() } }),
    onSuccess: () => invalidatePointsEverywhere(qc),
  });
}

/** The sentences a failed transfer shows: describeError(error, POINTS_ERROR_MESSAGES). */
export const POINTS_ERROR_MESSAGES: TErrorMessages = {
  USER_NOT_FOUND: 'No player has that username. Check the spelling.',
  INSUFFICIENT_POINTS: (e) => {
    const available = e.details?.available;
    return typeof available === 'number'
      ? `You don't have enough points: you have ${available.toLocaleString('en-US')}.`
      : "You don't have enough points for this transfer.";
  },
  CANNOT_TRANSFER_TO_SELF: "You can't send points to yourself.",
};

/** The sentences a failed bonus claim shows. */
export const BONUS_ERROR_MESSAGES: TErrorMessages = {
  BONUS_ALREADY_CLAIMED: 'You have already claimed this bonus.',
  EMAIL_TAKEN: 'Another player already used that email address.',
  WALLET_TAKEN: 'Another player already connected that wallet.',
  EMAIL_TOKEN_INVALID: 'That code is not right. Check the latest email we sent, or ask for a new code.',
  EMAIL_TOKEN_EXPIRED: 'That code has expired. Ask for a new one.',
  EMAIL_NOT_CONFIGURED: 'Email verification is not available on this server yet.',
};
