/**
 * Reading accounts' numbers (README): one statement through sql.ts, shaped by
 * lib/ledger/account-numbers.ts. Every screen and API that shows equity or P&L calls these.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf, textArray, type DbOrTx } from '@/db/client';
import { accountNumbersOf, type TAccountNumbers } from '@/lib/ledger/account-numbers';
import { accountNumbersSql } from './sql';

type TRow = {
  user_id: string;
  cash: string;
  predictions_value: string;
  perps_value: string;
  pools_value: string;
  contributions: string;
  predictions_cost: string;
  perps_cost: string;
  pools_cost: string;
  flow_predictions: string;
  flow_perps: string;
  flow_pools: string;
};

function numbersOfRow(r: TRow): TAccountNumbers {
  return accountNumbersOf({
    cash: r.cash,
    contributions: r.contributions,
    products: {
      predictions: { flows: r.flow_predictions, value: r.predictions_value, cost: r.predictions_cost },
      perps: { flows: r.flow_perps, value: r.perps_value, cost: r.perps_cost },
      pools: { flows: r.flow_pools, value: r.pools_value, cost: r.pools_cost },
    },
  });
}

/** The numbers of many accounts, one statement; unknown ids are absent from the map. */
export async function readAccountNumbersMany(userIds: readonly string[], db?: DbOrTx): Promise<Map<string, TAccountNumbers>> {
  const out = new Map<string, TAccountNumbers>();
  if (userIds.length === 0) return out;
  const conn = db ?? (await getDb());
  const read = async (q: DbOrTx) =>
    q.execute(sql`
      select a.user_id, a.cash::text as cash, a.predictions_value::text as predictions_value, a.perps_value::text as perps_value,
        a.pools_value::text as pools_value, a.contributions::text as contributions, a.predictions_cost::text as predictions_cost,
        a.perps_cost::text as perps_cost, a.pools_cost::text as pools_cost, a.flow_predictions::text as flow_predictions,
        a.flow_perps::text as flow_perps, a.flow_pools::text as flow_pools
      from (${accountNumbersSql(sql`unnest(${textArray(userIds)})`)}) a`);
  // Many accounts at once: the estimate of its many small lookups crosses PostgreSQL's JIT
  // threshold, and compiling costs far more than running (lib/standings refresh.ts); off for the
  // read. In a caller's transaction, or for one account, the statement runs as it is.
  const result =
    db || userIds.length === 1
      ? await read(conn)
      : await (conn as Awaited<ReturnType<typeof getDb>>).transaction(async (tx) => {
          await tx.execute(sql`set local jit = off`);
          return read(tx);
        });
  for (const r of rowsOf<TRow>(result)) out.set(r.user_id, numbersOfRow(r));
  return out;
}

/** One account's numbers (null for an unknown account). */
export async function readAccountNumbers(userId: string, db?: DbOrTx): Promise<TAccountNumbers | null> {
  return (await readAccountNumbersMany([userId], db)).get(userId) ?? null;
}
