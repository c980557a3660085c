/** Notifications to a user (specification "Notification"); the social issue adds the routes. */
import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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
    /**
     * Where the recipient wants this kind (issue 35, notification_preferences): `in_app` is listed and
     * counted as unread; `digest` waits for the daily digest (the digest page, and one digest
     * notification a day). A kind set to `off` is never written.
     */
    delivery: text('delivery', { enum: ['in_app', 'digest'] }).notNull().default('in_app'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, t.createdAt),
    // The daily digest reads the day's digest-delivered rows only: found by this index, not by a scan of the day's notifications.
    index('notifications_digest_created_idx').on(t.createdAt).where(sql`delivery = 'digest'`),
    // The price-move alerts read the notices turning a day old since their last run (migration 0029).
    index('notifications_price_move_created_idx').on(t.createdAt).where(sql`kind = 'price_move'`),
  ],
);

/** A player's choice per notification kind (issue 35): no row is the kind's default. */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    /** A system kind (lib/notifications/kinds.ts) or a social type (comment, reply, mention, …). */
    kind: text('kind').notNull(),
    channel: text('channel', { enum: ['in_app', 'digest', 'off'] }).notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    // The price-move alerts read the price_move choices changed since their last run (migration 0029).
    index('notification_preferences_price_move_updated_idx').on(t.updatedAt).where(sql`kind = 'price_move'`),
  ],
);
export type TNotificationPreferenceRow = typeof notificationPreferences.$inferSelect;

export type TNotificationRow = typeof notifications.$inferSelect;
