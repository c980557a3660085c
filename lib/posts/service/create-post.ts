/**
 * Creating a post: the text rules (lib/posts/text.ts), then the post, its tags, the mentioned
 * users' notifications and the feed event in one transaction. The caller is the author.
 */
import 'server-only';
import { eq, inArray, sql } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { markets, posts, postTags, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { emitEvent } from '@/lib/events/outbox';
import { AppError } from '@/lib/errors/app-error';
import { notify } from '@/lib/notifications/service';
import { POST_MAX_CHARS, parseMentions, parseTags, visibleLength } from '../text';
import { getPost } from './read-posts';

/** Posts as the caller; answers the post as the caller reads it. */
export async function createPost(input: {
  caller: TCaller;
  content: string;
  type: 'post' | 'article';
  relatedQuestion?: string | null;
  /** Checked by the contract (ZImageUrl: an upload, a bundled image or an https URL elsewhere, never a path into the API). */
  imageUrl?: string | null;
  /**
   * Internal (the game's NPCs only; never part of POST /api/posts): the trade this post reports,
   * a `trades` row ('prediction') or a `perp_trades` row ('perp'). Written only after it succeeded.
   */
  trade?: { kind: 'prediction' | 'perp'; id: string } | null;
}) {
  const { caller } = input;
  const content = input.content.trim();
  const length = visibleLength(content);
  if (length < 1 || length > POST_MAX_CHARS) {
    throw new AppError('VALIDATION_ERROR', `A post is 1 to ${POST_MAX_CHARS} characters (this one is ${length})`, { length, max: POST_MAX_CHARS });
  }
  const db = await getDb();
  if (input.relatedQuestion) {
    const [m] = await db.select({ id: markets.id }).from(markets).where(eq(markets.id, input.relatedQuestion));
    if (!m) throw new AppError('VALIDATION_ERROR', 'relatedQuestion is not a known question', { relatedQuestion: input.relatedQuestion });
  }
  const tags = parseTags(content);
  const mentions = parseMentions(content).filter((u) => u !== caller.username.toLowerCase());
  const at = now();
  const id = await withTransaction(async (tx) => {
    const [post] = await tx
      .insert(posts)
      .values({
        authorId: caller.userId,
        type: input.type,
        content,
        imageUrl: input.imageUrl || null,
        relatedQuestionId: input.relatedQuestion ?? null,
        tradeKind: input.trade?.kind ?? null,
        tradeId: input.trade?.id ?? null,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: posts.id });
    if (tags.length) await tx.insert(postTags).values(tags.map((tag) => ({ postId: post!.id, tag, createdAt: at })));
    if (mentions.length) {
      const mentioned = await tx
        .select({ id: users.id })
        .from(users)
        .where(inArray(sql`lower(${users.username})`, mentions));
      await notify(
        tx,
        mentioned.map((u) => ({
          userId: u.id,
          type: 'mention' as const,
          actorId: caller.userId,
          postId: post!.id,
          title: 'You were mentioned',
          message: `@${caller.username} mentioned you: ${content.slice(0, 120)}`,
        })),
      );
    }
    await emitEvent(tx, 'feed', {
      type: 'feed_update',
      data: { post: { id: post!.id, content, authorId: caller.userId, timestamp: at.toISOString() } },
    });
    return post!.id;
  });
  const { post } = await getPost({ caller, postId: id });
  return { post };
}
