/** Notifications to a user (specification "Notification"); the social issue adds the routes. */
import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, timestamptz } from './columns';
import { users } from './users';

export const notifications = pgTable(
  'notifications',
  {
    id: idColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    type: text('type', { enum: ['comment', 'reaction', 'follow', 'mention', 'reply', 'share', 'system'] }).notNull(),
    actorId: text('actor_id').references(() => users.id),
    postId: text('post_id'),
    commentId: text('comment_id'),
    /**
     * What a `system` notification is about, finer than the specification's type (which stays one
     * of its seven values): trade, price_move, liquidation_warning, liquidation, funding,
     * resolution, payout. Null for the social kinds.
     */
    kind: text('kind'),
    /** The in-app page it is about (`/markets/<id>`, `/perps/<ticker>`, `/pools/<id>`), when one. */
    link: text('link'),
    title: text('title').notNull(),
    message: text('message').notNull(),
    read: boolean('read').notNull().default(false),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('notifications_user_created_idx').on(t.userId, t.createdAt)],
);

export type TNotificationRow = typeof notifications.$inferSelect;
