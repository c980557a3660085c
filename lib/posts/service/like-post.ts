/** Liking and unliking a post as the caller (one statement each: lib/posts/service/toggle-like.ts). */
import 'server-only';
import type { TCaller } from '@/lib/auth/caller';
import { toggleLike } from './toggle-like';

export function likePost(input: { caller: TCaller; postId: string }) {
  return toggleLike('post', input.postId, input.caller, true);
}

export function unlikePost(input: { caller: TCaller; postId: string }) {
  return toggleLike('post', input.postId, input.caller, false);
}
