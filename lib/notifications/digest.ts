/**
 * The daily digest: the notifications a player asked to receive that way (`delivery = 'digest'`),
 * read grouped on the digest page, and one `digest` notification a day that points to it.
 *
 * - `digestOf`: the caller's digest notifications of the last `days` days, grouped by kind and by
 *   what they are about (their link: a market, a ticker, …) and so deduplicated: "3 orders filled
 *   in “Will …?”", with the latest one's title and message. One statement.
 * - `writeDailyDigests(db, at)`: for the game day (UTC date) just ended before `at`, one `system`
 *   notification of kind `digest` per player with digest notifications that day, linking
 *   `/notifications/digest?day=<date>`; the link marks the day, so a second call writes nothing.
 *   One INSERT … SELECT whatever the number of players; never for NPC actors; a player who turned
 *   the kind `digest` off gets none. The tick calls it (lib/game).
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { getDb, rowsOf, type DbOrTx } from '@/db/client';
import { markets, notifications, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { canNotify } from '@/lib/moderation/visibility';
import { wantsNotice } from '@/db/notification-delivery';
import { countLabel, KIND_LABELS } from './labels';

export type TDigestGroup = {
  /** The kind (a system kind, or the social type). */
  kind: string;
  /** The kind's name ("Order filled"), as screen readers hear it first. */
  label: string;
  /** "3 orders filled in “Will …?”". */
  summary: string;
  count: number;
  unread: number;
  link: string | null;
  latestTitle: string;
  latestMessage: string;
  latestAt: string;
};

const quoted = (t: string) => `“${t.length > 80 ? `${t.slice(0, 79)}…` : t}”`;

/** The caller's digest notifications of the last `days` days, grouped by kind and subject, newest group first. */
export async function digestOf(input: { caller: TCaller; days: number; at: Date }) {
  const db = await getDb();
  const since = new Date(input.at.getTime() - input.days * 86_400_000).toISOString();
  const rows = rowsOf<{
    k: string;
    link: string | null;
    n: number | string;
    unread: number | string;
    title: string;
    message: string;
    latest: string | Date;
    subject: string | null;
  }>(
    await db.execute(sql`
      with g as (
        select coalesce(n.kind, n.type) as k, n.link, count(*) as n, count(*) filter (where not n.read) as unread,
          (array_agg(n.title order by n.created_at desc, n.id desc))[1] as title,
          (array_agg(n.message order by n.created_at desc, n.id desc))[1] as message,
          max(n.created_at) as latest
        from ${notifications} n
        where n.user_id = ${input.caller.userId} and ${canNotify(sql`n.user_id`, sql`n.actor_id`)}
          and n.delivery = 'digest' and n.created_at > ${since}::timestamptz
        group by coalesce(n.kind, n.type), n.link
      )
      select g.*, case when g.link like '/markets/%' then m.text when g.link like '/perps/%' then substr(g.link, 8) end as subject
      from g left join ${markets} m on g.link = '/markets/' || m.id
      order by g.latest desc, g.k
      limit 200`),
  );
  const groups: TDigestGroup[] = rows.map((r) => {
    const count = Number(r.n);
    const subject = r.subject ? (r.link?.startsWith('/perps/') ? r.subject : quoted(r.subject)) : null;
    return {
      kind: r.k,
      label: (KIND_LABELS as Record<string, { label: string } | undefined>)[r.k]?.label ?? 'Notification',
      summary: `${countLabel(r.k, count)}${subject ? ` in ${subject}` : ''}`,
      count,
      unread: Number(r.unread),
      link: r.link && r.link.startsWith('/') && !r.link.startsWith('//') ? r.link : null,
      latestTitle: r.title,
      latestMessage: r.message,
      latestAt: new Date(r.latest).toISOString(),
    };
  });
  return { days: input.days, groups };
}

/** The SQL count label of a kind column (labels.ts countLabel): "3 orders filled", "1 payout". */
const countLabelSql = (k: SQL, c: SQL) => {
  const pick = (form: 'one' | 'many', fallback: string) =>
    sql`(case ${k} ${sql.join(
      Object.entries(KIND_LABELS).map(([kind, l]) => sql`when ${kind}::text then ${l[form]}::text`),
      sql` `,
    )} else ${fallback}::text end)`;
  return sql`(${c} || ' ' || case when ${c} = 1 then ${pick('one', 'notification')} else ${pick('many', 'notifications')} end)`;
};

/** The digest link of a day: its marker too (never twice for the same day). */
export function digestLinkOf(day: string) {
  return `/notifications/digest?day=${day}`;
}

/**
 * One `digest` notification per player with digest notifications in the UTC day before `at`
 * (not twice for a day). Returns how many it wrote.
 */
export async function writeDailyDigests(db: DbOrTx, at: Date) {
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const start = new Date(end.getTime() - 86_400_000);
  const day = start.toISOString().slice(0, 10);
  const link = digestLinkOf(day);
  const [r] = rowsOf<{ n: number | string }>(
    await db.execute(sql`
      with per_kind as (
        select n.user_id, coalesce(n.kind, n.type) as k, count(*) as c
        from ${notifications} n
        join ${users} u on u.id = n.user_id and not u.is_actor
        where n.delivery = 'digest' and n.created_at >= ${start.toISOString()}::timestamptz and n.created_at < ${end.toISOString()}::timestamptz
          and ${canNotify(sql`n.user_id`, sql`n.actor_id`)}
        group by n.user_id, coalesce(n.kind, n.type)
      ),
      per_user as (
        select user_id, sum(c) as total, string_agg(${countLabelSql(sql`k`, sql`c`)}, ', ' order by c desc, k) as parts
        from per_kind group by user_id
      ),
      ins as (
        insert into ${notifications} (id, user_id, type, kind, link, title, message, read, delivery, created_at)
        select gen_random_uuid()::text, p.user_id, 'system', 'digest', ${link},
          'Your daily digest: ' || p.total || case when p.total = 1 then ' notification' else ' notifications' end,
          'On ' || ${day} || ': ' || p.parts || '.', false, 'in_app', ${at.toISOString()}::timestamptz
        from per_user p
        where not exists (select 1 from ${notifications} x where x.user_id = p.user_id and x.kind = 'digest' and x.link = ${link})
          and ${wantsNotice(sql`p.user_id`, sql`'digest'`)}
        returning id
      )
      select count(*) as n from ins`),
  );
  return Number(r?.n ?? 0);
}
