/**
 * The social graph and content: posts with tags, threaded comments, likes, shares, follows,
 * favorites, and the per-hour limit on replies to NPC actors. Counters on posts and comments are
 * kept in the same statement as the row they count (a like and likes_count move together), and
 * unique keys make a second like, share or follow a no-op, so counts never drift.
 */
import { bigint, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamptz } from './columns';
import { markets } from './markets';
import { users } from './users';

export const posts = pgTable(
  'posts',
  {
    id: idColumn(),
    authorId: text('author_id')
      .notNull()
      .references(() => users.id),
    type: text('type', { enum: ['post', 'article'] }).notNull().default('post'),
    content: text('content').notNull(),
    imageUrl: text('image_url'),
    relatedQuestionId: text('related_question_id').references(() => markets.id),
    /**
     * The trade a post reports (an NPC's "Opened a 40x long on $ORBT" names the trade it made):
     * `prediction` for a row of `trades`, `perp` for a row of `perp_trades`. Null for other posts.
     */
    tradeKind: text('trade_kind', { enum: ['prediction', 'perp'] }),
    tradeId: text('trade_id'),
    likesCount: integer('likes_count').notNull().default(0),
    commentsCount: integer('comments_count').notNull().default(0),
    sharesCount: integer('shares_count').notNull().default(0),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    /** Removed by a moderator (issue 35): the row stays, its place shows the reason; restore clears these. */
    removedAt: timestamptz('removed_at'),
    removedById: text('removed_by_id').references(() => users.id),
    removedReason: text('removed_reason'),
  },
  (t) => [
    // Keyset pagination: newest first, id breaks ties.
    index('posts_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('posts_author_created_idx').on(t.authorId, t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * Each author's posts by type, kept by a statement-level trigger on posts (migration 0035): the
 * feed's total subtracts the hidden authors' counts from post_totals. Never written by code.
 */
export const postCounts = pgTable(
  'post_counts',
  {
    authorId: text('author_id')
      .notNull()
      .references(() => users.id),
    type: text('type').notNull(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'post_counts_pk', columns: [t.authorId, t.type] })],
);

/** Every post by type in 16 shards (by the id's hash), kept with post_counts (migration 0035). */
export const postTotals = pgTable(
  'post_totals',
  {
    type: text('type').notNull(),
    shard: integer('shard').notNull(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'post_totals_pk', columns: [t.type, t.shard] })],
);

export const postTags = pgTable(
  'post_tags',
  {
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    /** Lower case, without the '#'. */
    tag: text('tag').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.tag] }), index('post_tags_tag_created_idx').on(t.tag, t.createdAt.desc())],
);

export const comments = pgTable(
  'comments',
  {
    id: idColumn(),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id),
    authorId: text('author_id')
      .notNull()
      .references(() => users.id),
    parentCommentId: text('parent_comment_id'),
    /** Whose content this answers: the parent comment's author, or the post's (NPC reply limit, notifications). */
    replyToUserId: text('reply_to_user_id').references(() => users.id),
    content: text('content').notNull(),
    likesCount: integer('likes_count').notNull().default(0),
    repliesCount: integer('replies_count').notNull().default(0),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    editedAt: timestamptz('edited_at'),
    /** A deleted comment keeps its row (and its replies' thread) with its content removed. */
    deletedAt: timestamptz('deleted_at'),
    /** Removed by a moderator (issue 35): the row stays, its place shows the reason; restore clears these. */
    removedAt: timestamptz('removed_at'),
    removedById: text('removed_by_id').references(() => users.id),
    removedReason: text('removed_reason'),
  },
  (t) => [
    index('comments_post_created_idx').on(t.postId, t.createdAt),
    index('comments_parent_idx').on(t.parentCommentId),
    index('comments_author_reply_to_idx').on(t.authorId, t.replyToUserId, t.createdAt),
  ],
);

export const postLikes = pgTable(
  'post_likes',
  {
    postId: text('post_id')
      .notNull()
      .references(() => posts.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] }), index('post_likes_user_idx').on(t.userId, t.createdAt)],
);

export const commentLikes = pgTable(
  'comment_likes',
  {
    commentId: text('comment_id')
      .notNull()
      .references(() => comments.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.userId] })],
);

export const shares = pgTable(
  'shares',
  {
    id: idColumn(),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    quote: text('quote'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('shares_post_user_idx').on(t.postId, t.userId),
    index('shares_user_created_idx').on(t.userId, t.createdAt.desc()),
  ],
);

export const follows = pgTable(
  'follows',
  {
    followerId: text('follower_id')
      .notNull()
      .references(() => users.id),
    followingId: text('following_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followingId] }),
    index('follows_following_idx').on(t.followingId, t.createdAt.desc()),
  ],
);

export const favorites = pgTable(
  'favorites',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    favoriteUserId: text('favorite_user_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.favoriteUserId] })],
);

/** Uploaded images: where the bytes live (the storage key) and what they are. */
export const uploads = pgTable(
  'uploads',
  {
    id: idColumn(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['profile', 'cover', 'post'] }).notNull(),
    storageKey: text('storage_key').notNull().unique(),
    contentType: text('content_type').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('uploads_owner_idx').on(t.ownerId, t.createdAt)],
);

export type TPostRow = typeof posts.$inferSelect;
export type TCommentRow = typeof comments.$inferSelect;
export type TUploadRow = typeof uploads.$inferSelect;
