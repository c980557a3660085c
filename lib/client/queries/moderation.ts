/**
 * Moderation in the browser: whether the signed-in user blocked or muted someone, blocking,
 * muting and undoing either, the caller's blocks and mutes (offset-paged, for the settings
 * pages), and reporting a user or a post. queryOptions factories own every query key; hooks and
 * invalidations go through them and through the other domains' factories. A block or a mute
 * takes the person's posts out of every cached feed at once (before the feeds reload), so they
 * vanish the moment the server agrees; the reloads then bring every surface (comments,
 * notifications, trending, follow buttons) in line with the server's rules.
 * Pure helpers (report categories, the report draft check) do no I/O. I/O: the typed client only.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointInput, TEndpointResponse } from '@/lib/contracts/endpoint';
import {
  moderationBlocksList,
  moderationMutesList,
  moderationReportCreate,
  usersBlock,
  usersBlockStatus,
  usersMute,
  usersMuteStatus,
  ZEvidenceUrl,
  type TReport,
} from '@/lib/contracts/moderation';
import { visibleLength } from '@/lib/posts/text';
import { getCommentsQueryOptions } from './comments';
import { SOCIAL_PACE_MESSAGES, type TErrorMessages } from './errors';
import { getFollowStatusQueryOptions } from './follows';
import { getNotificationsQueryOptions } from './notifications';
import { postKeys, type TPost } from './posts';
import { getMeQueryOptions } from './users';
import { widgetKeys } from './widgets';

export type { TReport };
export type TBlocksPage = TEndpointResponse<typeof moderationBlocksList>;
export type TMutesPage = TEndpointResponse<typeof moderationMutesList>;
export type TBlockEntry = TBlocksPage['blocks'][number];
export type TMuteEntry = TMutesPage['mutes'][number];
export type TReportInput = NonNullable<TEndpointInput<typeof moderationReportCreate>['body']>;

const keys = {
  all: ['moderation'] as const,
  blockStatus: (userId: string) => [...keys.all, 'block-status', userId] as const,
  muteStatus: (userId: string) => [...keys.all, 'mute-status', userId] as const,
  blocks: () => [...keys.all, 'blocks'] as const,
  blocksPage: (offset: number) => [...keys.blocks(), offset] as const,
  mutes: () => [...keys.all, 'mutes'] as const,
  mutesPage: (offset: number) => [...keys.mutes(), offset] as const,
};

// ---------------------------------------------------------------------------------------------
// Block and mute status

export function getBlockStatusQueryOptions(userId: string) {
  return queryOptions({
    queryKey: keys.blockStatus(userId),
    queryFn: () => api(usersBlockStatus, { params: { userId } }),
    staleTime: 30_000,
  });
}

/** Whether the signed-in user blocked `userId` (and whether `userId` blocked them); idle until enabled. */
export function useBlockStatus(userId: string, { isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getBlockStatusQueryOptions(userId), enabled: !!userId && isEnabled });
}

export function getMuteStatusQueryOptions(userId: string) {
  return queryOptions({
    queryKey: keys.muteStatus(userId),
    queryFn: () => api(usersMuteStatus, { params: { userId } }),
    staleTime: 30_000,
  });
}

export function useMuteStatus(userId: string, { isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getMuteStatusQueryOptions(userId), enabled: !!userId && isEnabled });
}

// ---------------------------------------------------------------------------------------------
// Hiding a person's posts in the cache

/** Whether a feed item is by `userId` or is `userId`'s repost: either leaves the feed with a block or a mute. */
const isByUser = (p: TPost, userId: string) => p.author.id === userId || p.authorId === userId || p.repost?.user.id === userId;

/**
 * `data` without `userId`'s posts and reposts: feeds (infinite pages), `{posts}` pages. A single
 * post (its own page) is left alone: the reader asked for it by its address.
 */
export function withoutUserPosts(data: unknown, userId: string): unknown {
  if (!data || typeof data !== 'object') return data;
  if ('pages' in data && Array.isArray((data as InfiniteData<unknown>).pages)) {
    const d = data as InfiniteData<unknown>;
    return { ...d, pages: d.pages.map((page) => withoutUserPosts(page, userId)) };
  }
  if ('posts' in data && Array.isArray((data as { posts: unknown }).posts)) {
    const d = data as { posts: TPost[] };
    const posts = d.posts.filter((p) => !isByUser(p, userId));
    return posts.length === d.posts.length ? data : { ...d, posts };
  }
  return data;
}

/** Takes `userId`'s posts out of every cached feed at once, then has every surface they may appear on reload. */
const hideAndRefresh = async (qc: QueryClient, userId: string, { isHiding }: { isHiding: boolean }) => {
  if (isHiding) {
    await qc.cancelQueries({ queryKey: postKeys.all });
    qc.setQueriesData({ queryKey: postKeys.all }, (data: unknown) => withoutUserPosts(data, userId));
  }
  await Promise.all([
    qc.invalidateQueries({ queryKey: postKeys.all }),
    // Comments, notifications and trending widgets follow the same rules on the server.
    qc.invalidateQueries({ queryKey: getCommentsQueryOptions('').queryKey.slice(0, 1) }),
    qc.invalidateQueries({ queryKey: getNotificationsQueryOptions().queryKey.slice(0, 1) }),
    qc.invalidateQueries({ queryKey: widgetKeys.all }),
  ]);
};

// ---------------------------------------------------------------------------------------------
// Blocking and muting

export type TToggleBlockInput = { userId: string; block: boolean; reason?: string };

/**
 * Block or unblock `userId`. A block removes the follows both ways on the server, so the follow
 * button and one's own counts reload too; the caller's blocks list and the status follow the answer.
 */
export function useToggleBlock() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, block, reason }: TToggleBlockInput) =>
      api(usersBlock, { params: { userId }, body: { action: block ? 'block' : 'unblock', ...(reason ? { reason } : {}) } }),
    onSuccess: async (res, { userId, block }) => {
      qc.setQueryData(getBlockStatusQueryOptions(userId).queryKey, (s: TEndpointResponse<typeof usersBlockStatus> | undefined) => ({
        success: true as const,
        isBlockedBy: s?.isBlockedBy ?? false,
        isBlocked: block,
        block: block ? { id: res.block.id, createdAt: res.block.createdAt, reason: res.block.reason } : null,
      }));
      await Promise.all([
        hideAndRefresh(qc, userId, { isHiding: block }),
        qc.invalidateQueries({ queryKey: keys.blocks() }),
        qc.invalidateQueries({ queryKey: getFollowStatusQueryOptions(userId).queryKey }),
        qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
      ]);
    },
    // Already blocked or not blocked any more (another tab): the status was stale, so reload it.
    onError: (_e, { userId }) => qc.invalidateQueries({ queryKey: getBlockStatusQueryOptions(userId).queryKey }),
  });
}

export type TToggleMuteInput = { userId: string; mute: boolean; reason?: string };

/** Mute or unmute `userId`: the caller stops (or starts again) seeing their posts and notifications. */
export function useToggleMute() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, mute, reason }: TToggleMuteInput) =>
      api(usersMute, { params: { userId }, body: { action: mute ? 'mute' : 'unmute', ...(reason ? { reason } : {}) } }),
    onSuccess: async (res, { userId, mute }) => {
      qc.setQueryData(getMuteStatusQueryOptions(userId).queryKey, {
        success: true as const,
        isMuted: mute,
        mute: mute ? { id: res.mute.id, createdAt: res.mute.createdAt, reason: res.mute.reason } : null,
      });
      await Promise.all([hideAndRefresh(qc, userId, { isHiding: mute }), qc.invalidateQueries({ queryKey: keys.mutes() })]);
    },
    onError: (_e, { userId }) => qc.invalidateQueries({ queryKey: getMuteStatusQueryOptions(userId).queryKey }),
  });
}

// ---------------------------------------------------------------------------------------------
// The caller's blocks and mutes, offset-paged

export const MODERATION_PAGE_SIZE = 20;

export function getBlocksQueryOptions(offset: number) {
  return queryOptions({
    queryKey: keys.blocksPage(offset),
    queryFn: () => api(moderationBlocksList, { query: { limit: MODERATION_PAGE_SIZE, offset } }),
  });
}

/** One page of the people the caller blocked, newest first; the previous page stays on screen while the next loads. */
export function useBlocks(offset: number) {
  return useQuery({ ...getBlocksQueryOptions(offset), placeholderData: keepPreviousData });
}

export function getMutesQueryOptions(offset: number) {
  return queryOptions({
    queryKey: keys.mutesPage(offset),
    queryFn: () => api(moderationMutesList, { query: { limit: MODERATION_PAGE_SIZE, offset } }),
  });
}

export function useMutes(offset: number) {
  return useQuery({ ...getMutesQueryOptions(offset), placeholderData: keepPreviousData });
}

export type TPageInfo = { page: number; pages: number; from: number; to: number; total: number; hasPrevious: boolean; hasNext: boolean };

/** Page numbers and the range shown ("21–40 of 45") from an offset pagination. */
export function pageInfo({ limit, offset, total }: { limit: number; offset: number; total: number }, shown: number): TPageInfo {
  const pages = Math.max(1, Math.ceil(total / limit));
  const page = Math.min(pages, Math.floor(offset / limit) + 1);
  return {
    page,
    pages,
    from: shown === 0 ? 0 : offset + 1,
    to: offset + shown,
    total,
    hasPrevious: offset > 0,
    hasNext: offset + shown < total,
  };
}

/**
 * The offset to show after the last row of a page was undone: the page before, when this one
 * is now empty (so undoing the last person on page 3 does not leave an empty page 3).
 */
export function offsetAfterRemoval(offset: number, rowsLeft: number, limit: number) {
  return (rowsLeft === 0 && offset > 0 ? Math.max(0, offset - limit) : offset);
}

// ---------------------------------------------------------------------------------------------
// Reports

export type TReportCategory = TReport['category'];

/** The nine categories in the order the form shows them, each with a one-line explanation. */
export const REPORT_CATEGORIES: readonly { value: TReportCategory; label: string; description: string }[] = [
  { value: 'spam', label: 'Spam', description: 'Repeated, unwanted or promotional posts, scams or fake engagement.' },
  { value: 'harassment', label: 'Harassment', description: 'Insults, threats or pile-ons aimed at a person.' },
  { value: 'hate_speech', label: 'Hate speech', description: 'Attacks on people for who they are: race, religion, gender, sexuality, disability.' },
  { value: 'violence', label: 'Violence', description: 'Threats of violence, or praise or glorification of it.' },
  { value: 'misinformation', label: 'Misinformation', description: 'False claims presented as fact, meant to mislead other players or markets.' },
  { value: 'inappropriate', label: 'Inappropriate content', description: 'Sexual, graphic or shocking content that does not belong here.' },
  { value: 'impersonation', label: 'Impersonation', description: 'Pretending to be another player, an NPC or a real person.' },
  { value: 'self_harm', label: 'Self-harm', description: 'Someone may hurt themselves, or content encourages it.' },
  { value: 'other', label: 'Something else', description: 'Another rule is broken; say which in the reason.' },
];

export function reportCategoryLabel(category: TReportCategory) {
  return REPORT_CATEGORIES.find((c) => c.value === category)?.label ?? category;
}

export const REPORT_REASON_MIN = 10;
export const REPORT_REASON_MAX = 2000;

/** A reason's length as the server counts it (characters as a reader sees them, trimmed). */
export function reportReasonLength(reason: string) {
  return visibleLength(reason.trim());
}

export type TReportDraft = { category: TReportCategory | null; reason: string; evidence: string };
export type TReportDraftProblems = Partial<Record<'category' | 'reason' | 'evidence', string>>;

/** What stops a report from being sent, by field (the server checks the same rules). */
export function reportDraftProblems(draft: TReportDraft): TReportDraftProblems {
  const problems: TReportDraftProblems = {};
  if (!draft.category) problems.category = 'Pick the category that fits best.';
  const length = reportReasonLength(draft.reason);
  if (length < REPORT_REASON_MIN) problems.reason = `Tell us what happened in at least ${REPORT_REASON_MIN} characters.`;
  else if (length > REPORT_REASON_MAX) problems.reason = `Keep the reason under ${REPORT_REASON_MAX} characters.`;
  if (draft.evidence.trim() !== '' && !ZEvidenceUrl.safeParse(draft.evidence).success) problems.evidence = 'Enter a link that starts with http:// or https://.';
  return problems;
}

export type TReportTarget = { reportType: 'user'; reportedUserId: string } | { reportType: 'post'; reportedPostId: string };

/** The request body for a target and a draft that has no problems. */
export function buildReportBody(target: TReportTarget, draft: TReportDraft & { category: TReportCategory }): TReportInput {
  const evidence = draft.evidence.trim();
  return { ...target, category: draft.category, reason: draft.reason.trim(), ...(evidence ? { evidence } : {}) };
}

export function useCreateReport() {
  return useMutation({
    mutationFn: async (body: TReportInput) => (await api(moderationReportCreate, { body })).report,
  });
}

// ---------------------------------------------------------------------------------------------
// Errors

/** The sentences a failed block, mute or report shows: describeError(error, MODERATION_ERROR_MESSAGES). */
export const MODERATION_ERROR_MESSAGES: TErrorMessages = {
  ...SOCIAL_PACE_MESSAGES,
  DUPLICATE_REPORT: 'You already reported this in the last 24 hours.',
  ALREADY_BLOCKED: 'You already blocked this player.',
  NOT_BLOCKED: 'This player is not blocked any more.',
  ALREADY_MUTED: 'You already muted this player.',
  NOT_MUTED: 'This player is not muted any more.',
  CANNOT_TARGET_SELF: "You can't do that to yourself.",
  POST_NOT_FOUND: 'That post is gone: it may have been deleted.',
  USER_BLOCKED: 'You cannot do that: one of you has blocked the other.',
  USER_BANNED: 'Your account is banned: you can read, but not post, trade or change anything.',
};
