/** Liking and unliking a post as the caller (one statement each: lib/posts/service/toggle-like.ts). */
import 'server-only';
import type { TCaller } from '@/lib/auth/caller';
import { toggleLike } from './toggle-like';

export const likePost = (input: { caller: TCaller; postId: string }) => toggleLike('post', input.postId, input.caller, true);

export const unlikePost = (input: { caller: TCaller; postId: string }) => toggleLike('post', input.postId, input.caller, false);
