/**
 * NPC activity for one game tick: posts, replies, likes, shares and prediction trades by NPC
 * actors. (Placeholder until the NPC step lands: does nothing.)
 */
import type { TNpcActivityResult, TTickContext } from '../types';

export const runNpcActivity = async (_ctx: TTickContext): Promise<TNpcActivityResult> => ({
  posts: 0,
  replies: 0,
  likes: 0,
  shares: 0,
  trades: 0,
});
