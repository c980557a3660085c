/**
 * The notices a resolution writes, in its transaction: one per holder, `payout` with what the
 * winning shares paid, else `resolution` with the loss (lib/notifications/README.md lists every
 * kind). Written here, as lib/perps' sweep writes its liquidation notices, so that lib/markets
 * does not import lib/notifications, which prices holdings through this folder's SQL (sql.ts); the
 * recipients' per-kind preferences apply through db/notification-delivery.ts.
 * Set-based: one statement whatever the number of holders; never for NPC actors.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { marketPositions, markets, notifications, users } from '@/db/schema';
import { deliveryFor, wantsNotice } from '@/db/notification-delivery';

/** A money amount as "1,234.50". */
const money = (x: SQL) => sql`trim(to_char(round(${x}, 2), 'FM999,999,999,990.00'))`;
/** The question's text in quotes, cut at 80 characters. */
const quote = (text: SQL) => sql`'“' || (case when length(${text}) > 80 then left(${text}, 79) || '…' else ${text} end) || '”'`;

/**
 * After `marketId` resolved at `at` and its positions were settled (settled_at = at), one
 * notification per holder (both sides added up): `payout` when the shares paid, else `resolution`.
 */
export async function notifyMarketResolved(tx: DbOrTx, input: { marketId: string; at: Date }) {
  const ts = sql`${input.at.toISOString()}::timestamptz`;
  await tx.execute(sql`
    insert into ${notifications} (id, user_id, type, kind, link, title, message, read, delivery, created_at)
    select gen_random_uuid()::text, h.user_id, 'system', h.kind,
      '/markets/' || m.id,
      case when h.paid > 0 then 'Payout: ' || ${money(sql`h.paid`)} else 'Market resolved ' || m.resolved_outcome end,
      ${quote(sql`m.text`)} || ' resolved ' || m.resolved_outcome || '. '
        || case when h.paid > 0 then 'Your ' || m.resolved_outcome || ' shares paid ' || ${money(sql`h.paid`)}
          else 'Your ' || case when m.resolved_outcome = 'YES' then 'NO' else 'YES' end || ' shares paid nothing' end
        || ' (' || case when h.pnl >= 0 then '+' else '−' end || ${money(sql`abs(h.pnl)`)} || ' on this market).',
      false, ${deliveryFor(sql`h.user_id`, sql`h.kind`)}, ${ts}
    from (
      select mp.user_id, sum(coalesce(mp.payout, 0)) as paid, sum(mp.realized_pnl) as pnl,
        case when sum(coalesce(mp.payout, 0)) > 0 then 'payout' else 'resolution' end as kind
      from ${marketPositions} mp
      join ${users} u on u.id = mp.user_id and not u.is_actor
      where mp.market_id = ${input.marketId} and mp.settled_at = ${ts}
      group by mp.user_id
    ) h
    join ${markets} m on m.id = ${input.marketId}
    where ${wantsNotice(sql`h.user_id`, sql`h.kind`)}`);
}
