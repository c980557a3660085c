/**
 * The recipient's per-kind notification preference (notification_preferences, issue 35) as SQL
 * fragments, for every writer of notifications: lib/notifications (`notify`, its alerts and the
 * digest) and the set-based writers of lib/markets and lib/perps, inside their own INSERT … SELECT.
 * Here, below every lib folder, because lib/markets may not import lib/notifications (which prices
 * holdings through lib/markets' SQL: a folder cycle). Builds SQL only; writes nothing.
 *
 * A recipient's channel for a kind is their row's, else `in_app`: `off` writes nothing
 * (`wantsNotice` is false), `digest` writes the row with `delivery = 'digest'` (`deliveryFor`).
 * The key is the system kind (`order_filled`, `payout`, …) or, for the social types, the type.
 */
import { sql, type SQL } from 'drizzle-orm';
import { notificationPreferences } from './schema';

/** The recipient's channel for a kind: 'in_app' (no row), 'digest' or 'off'. */
export function channelFor(userIdSql: SQL, kindSql: SQL) {
  return sql`coalesce((select np.channel from ${notificationPreferences} np where np.user_id = ${userIdSql} and np.kind = ${kindSql}), 'in_app')`;
}

/** The `delivery` value to write: 'digest' when the recipient asked for the digest, else 'in_app'. */
export function deliveryFor(userIdSql: SQL, kindSql: SQL) {
  return sql`(case when ${channelFor(userIdSql, kindSql)} = 'digest' then 'digest' else 'in_app' end)`;
}

/** The where-clause condition: the recipient has not turned the kind off. */
export function wantsNotice(userIdSql: SQL, kindSql: SQL) {
  return sql`(${channelFor(userIdSql, kindSql)} <> 'off')`;
}
