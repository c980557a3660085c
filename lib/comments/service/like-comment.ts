/** Liking and unliking a comment as the caller: the same one-statement toggle as posts (lib/posts/service/toggle-like.ts). */
import 'server-only';
import type { TCaller } from '@/lib/auth/caller';
import { toggleLike } from '@/lib/posts/service/toggle-like';

export function likeComment(input: { caller: TCaller; commentId: string }) {
  return toggleLike('comment', input.commentId, input.caller, true);
}

export function unlikeComment(input: { caller: TCaller; commentId: string }) {
  return toggleLike('comment', input.commentId, input.caller, false);
}
