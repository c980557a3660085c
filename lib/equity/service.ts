/**
 * Reading accounts' numbers (README): one statement through sql.ts, shaped by
 * lib/ledger/account-numbers.ts. Every screen and API that shows equity or P&L calls these.
 */
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { getDb, preparedQuery, rowsOf, textArray, type Db, type DbOrTx } from '@/db/client';
import { users, type TUserRow } from '@/db/schema';
import type { TCallerRead } from '@/lib/principals/principal';
import { accountNumbersOf, type TAccountNumbers } from '@/lib/ledger/account-numbers';
import { statsCountFields } from '@/lib/users/queries';
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

const text = (column: keyof TRow) => sql<string>`${sql.raw(`a.${column}`)}::text`;

/**
 * One account's statement, prepared once per database handle: every signed-in page and
 * GET /api/users/me reads it, and drizzle would otherwise build its long SQL on every call.
 * The same statement as readAccountNumbersMany's, for an array of one id.
 */
const accountFields = () => ({
      user_id: sql<string>`a.user_id`,
      cash: text('cash'),
      predictions_value: text('predictions_value'),
      perps_value: text('perps_value'),
      pools_value: text('pools_value'),
      contributions: text('contributions'),
      predictions_cost: text('predictions_cost'),
      perps_cost: text('perps_cost'),
      pools_cost: text('pools_cost'),
      flow_predictions: text('flow_predictions'),
      flow_perps: text('flow_perps'),
      flow_pools: text('flow_pools'),
});

const oneAccountFrom = () => sql`(${accountNumbersSql(sql`unnest(array[${sql.placeholder('userId')}]::text[])`)}) a`;

const oneAccount = (db: Db) => db.select(accountFields()).from(oneAccountFrom()).prepare('account_numbers_one');

/** The account's numbers and the user's stats counts (lib/users statsCountFields) in one statement: GET /api/users/me. */
const oneAccountWithStats = (db: Db) =>
  db
    .select({ ...accountFields(), ...statsCountFields(sql.placeholder('userId')) })
    .from(oneAccountFrom())
    .prepare('account_numbers_and_stats_one');

/**
 * One account's numbers (null for an unknown account) and its user's stats counts (undefined
 * then), read together: the caller's own page needs both.
 */
export async function readAccountNumbersWithStatsCounts(userId: string) {
  const [row] = await preparedQuery(await getDb(), 'account_numbers_and_stats_one', oneAccountWithStats).execute({ userId });
  return { account: row ? numbersOfRow(row) : null, counts: row };
}

/**
 * The same statement keyed by the token's subject, with the caller's users row: GET /api/users/me
 * reads its caller, the account's numbers and the stats in one round trip (a TCallerRead).
 */
const meBySubject = (db: Db) =>
  db
    .select({ user: users, ...accountFields(), ...statsCountFields(sql`${users.id}`) })
    .from(users)
    .innerJoin(sql`lateral (${accountNumbersSql(sql`unnest(array[${users.id}]::text[])`)}) a`, sql`true`)
    .where(eq(users.authSubject, sql.placeholder('subject')))
    .prepare('me_by_subject');

type TNumbersWithStats = Awaited<ReturnType<typeof readAccountNumbersWithStatsCounts>>;

/** The caller's row with what readAccountNumbersWithStatsCounts reads, by subject (undefined before the account exists). */
export const readMeBySubject: TCallerRead<TNumbersWithStats> = async (subject) => {
  const [row] = await preparedQuery(await getDb(), 'me_by_subject', meBySubject).execute({ subject });
  if (!row) return undefined;
  const { user, ...counts } = row;
  return { user: user as TUserRow, value: { account: numbersOfRow(counts), counts } };
};

/** One account's numbers (null for an unknown account). */
export async function readAccountNumbers(userId: string, db?: DbOrTx): Promise<TAccountNumbers | null> {
  if (db) return (await readAccountNumbersMany([userId], db)).get(userId) ?? null;
  const conn = await getDb();
  const [row] = await preparedQuery(conn, 'account_numbers_one', oneAccount).execute({ userId });
  return row ? numbersOfRow(row) : null;
}
