/**
 * Per-kind delivery preferences (notification_preferences) in SQL, for this folder's writers. The
 * fragments themselves live in db/notification-delivery.ts, so that the set-based writers of
 * lib/markets and lib/perps apply the very same ones inside their own INSERT … SELECT without
 * importing this folder (lib/markets may not: this folder prices holdings through its SQL).
 *
 * A recipient's channel for a kind is their row's, else `in_app`: `off` writes nothing
 * (`wantsNotice` is false), `digest` writes the row with `delivery = 'digest'` (`deliveryFor`).
 * The key is the system kind (`order_filled`, `payout`, …) or, for the social types, the type
 * (`comment`, `mention`, …): `preferenceKeySql`.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { deliveryFor, wantsNotice } from '@/db/notification-delivery';
import { notifications } from '@/db/schema';

/** The preference key of a stored or pending notification: its kind, else its type. */
export function preferenceKeySql(kindSql: SQL, typeSql: SQL) {
  return sql`coalesce(${kindSql}, ${typeSql})`;
}

export type TSystemNotice = {
  userId: string;
  kind: string;
  link: string | null;
  title: string;
  message: string;
  createdAt: Date;
};

/**
 * Writes system notices built in memory in one INSERT … SELECT over their values, with the
 * recipients' preferences applied as everywhere else.
 */
export async function insertSystemNotices(db: DbOrTx, rows: readonly TSystemNotice[]) {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${crypto.randomUUID()}::text, ${r.userId}::text, ${r.kind}::text, ${r.link}::text, ${r.title}::text, ${r.message}::text, ${r.createdAt.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    insert into ${notifications} (id, user_id, type, kind, link, title, message, read, delivery, created_at)
    select v.id, v.user_id, 'system', v.kind, v.link, v.title, v.message, false, ${deliveryFor(sql`v.user_id`, sql`v.kind`)}, v.created_at
    from (values ${values}) as v(id, user_id, kind, link, title, message, created_at)
    where ${wantsNotice(sql`v.user_id`, sql`v.kind`)}`);
}
