/**
 * The browser side of issue 35's moderation actions: remove or restore a post or comment, warn a
 * user, ban for a while, the canned reasons and the audit trail. The server decides who may do
 * what (moderators remove, restore and warn; administrators also ban); these hooks only call it
 * and reload what the action changed (the whole admin cache, the posts and comments).
 */
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import {
  adminBanUser,
  adminCommentRemove,
  adminCommentRestore,
  adminModerationActions,
  adminModerationReasons,
  adminPostRemove,
  adminPostRestore,
  adminWarnUser,
  MODERATION_REASONS,
  type TModerationAction,
} from '@/lib/contracts/admin';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { postKeys } from '@/lib/client/queries/posts';

export type TModerationTrailEntry = TEndpointResponse<typeof adminModerationActions>['actions'][number];

/** The admin console's cache prefix (lib/client/queries/admin.ts keys.all). */
const ADMIN_KEY = ['admin'] as const;
const trailKey = (filters: { action?: TModerationAction; targetUserId?: string }) => [...ADMIN_KEY, 'moderation', 'actions', filters] as const;

/** The canned reasons (the server's list; the bundled copy shows at once). */
export function useModerationReasons() {
  return useQuery({
    queryKey: [...ADMIN_KEY, 'moderation', 'reasons'],
    queryFn: () => api(adminModerationReasons),
    initialData: { success: true as const, reasons: MODERATION_REASONS.map((r) => ({ ...r })) },
    staleTime: Infinity,
  });
}

/** The reason text an action sends: the canned label, or the free text when "other" is picked. */
export function reasonText(code: string, other: string) {
  if (code === 'other') return other.trim();
  return MODERATION_REASONS.find((r) => r.code === code)?.label ?? '';
}

const useInvalidateAll = () => {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ADMIN_KEY }),
      qc.invalidateQueries({ queryKey: postKeys.all }),
      qc.invalidateQueries({ queryKey: ['comments'] }),
    ]);
};

export type TContentAction = { kind: 'post' | 'comment'; id: string; act: 'remove' | 'restore'; reason?: string; reportId?: string };

export function useModerateContent() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: async ({ kind, id, act, reason, reportId }: TContentAction): Promise<{ message: string }> => {
      const body = { ...(reason ? { reason } : {}), ...(reportId ? { reportId } : {}) };
      if (kind === 'post') {
        return act === 'remove' ? api(adminPostRemove, { params: { id }, body: { reason: reason ?? '', ...body } }) : api(adminPostRestore, { params: { id }, body });
      }
      return act === 'remove' ? api(adminCommentRemove, { params: { id }, body: { reason: reason ?? '', ...body } }) : api(adminCommentRestore, { params: { id }, body });
    },
    onSuccess: invalidate,
  });
}

export function useWarnUser() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: ({ userId, reason, reportId }: { userId: string; reason: string; reportId?: string }) =>
      api(adminWarnUser, { params: { userId }, body: { reason, ...(reportId ? { reportId } : {}) } }),
    onSuccess: invalidate,
  });
}

/** The ban lengths the report page offers: a day, a week, or until lifted. */
export const BAN_LENGTHS = [
  { label: 'Ban 24 h', durationHours: 24 },
  { label: 'Ban 7 days', durationHours: 24 * 7 },
  { label: 'Ban permanently', durationHours: undefined },
] as const;

export function useTimedBan() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: ({ userId, reason, durationHours }: { userId: string; reason: string; durationHours?: number }) =>
      api(adminBanUser, { params: { userId }, body: { action: 'ban', reason, ...(durationHours ? { durationHours } : {}) } }),
    onSuccess: invalidate,
  });
}

export const TRAIL_PAGE_SIZE = 25;

/** The audit trail, newest first, a page at a time (cursor). */
export function useModerationTrail(filters: { action?: TModerationAction; targetUserId?: string }) {
  return useInfiniteQuery({
    queryKey: trailKey(filters),
    queryFn: ({ pageParam }) =>
      api(adminModerationActions, {
        query: { limit: TRAIL_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}), ...(filters.action ? { action: filters.action } : {}), ...(filters.targetUserId ? { targetUserId: filters.targetUserId } : {}) },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}
