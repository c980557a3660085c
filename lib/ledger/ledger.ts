/**
 * The ledger: the only code that changes a balance. Each change is one conditional UPDATE of the
 * user's row (which also takes the row lock until the caller's transaction ends) plus one
 * balance_transactions row with balanceBefore + amount = balanceAfter, both in the caller's
 * transaction, so a failed request leaves neither behind.
 * Invariants: a balance never goes below zero, even under concurrent requests (the WHERE clause
 * re-checks it under the lock); the user's balance equals the newest row's balanceAfter.
 */
import 'server-only';
import { eq, sql, type SQL } from 'drizzle-orm';
import { balanceTransactions, users } from '@/db/schema';
import { rowsOf, type DbOrTx, type Tx } from '@/db/client';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { dec, toDecimalString, toMoney, type TDecimal, type TDecimalInput } from '@/lib/money/decimal';

/** Transaction types of the specification, plus the ones later features add. */
export const TRANSACTION_TYPES = [
  'deposit',
  'withdrawal',
  'pred_buy',
  'pred_sell',
  'pred_payout',
  'perp_open',
  'perp_close',
  'funding_paid',
  'funding_received',
  'fee',
  'referral_fee',
  'pool_deposit',
  'pool_withdraw',
  'pool_performance_fee',
  'transfer_in',
  'transfer_out',
  'bonus',
  // Orders (issue 32): an open order's money set aside, and what it did not use given back
  // (prediction limit orders; perp limit orders' margin and fee).
  'order_reserve',
  'order_refund',
  'perp_order_reserve',
  'perp_order_refund',
] as const;
export type TTransactionType = (typeof TRANSACTION_TYPES)[number];

export type TBalanceChange = {
  userId: string;
  /** Signed: positive credits, negative debits. Rounded to the money scale. */
  amount: TDecimalInput;
  type: TTransactionType;
  description: string;
  reference?: { type: string; id: string };
  /** Realised profit or loss booked with this change (adds to the user's lifetimePnL). */
  realizedPnL?: TDecimalInput;
};

export type TBalanceChangeResult = {
  transactionId: string;
  balanceBefore: TDecimal;
  balanceAfter: TDecimal;
};

/**
 * The refusal of a debit that did not happen (a conditional update that matched no row): re-reads
 * the balance and throws INSUFFICIENT_BALANCE with `required` and `available` as decimal strings.
 * A user without a row has 0 available, unless `unknownUser` gives the error to throw instead.
 */
export async function insufficientBalance(
  db: DbOrTx,
  userId: string,
  required: TDecimalInput,
  opts: { unknownUser?: () => Error } = {},
): Promise<never> {
  const [existing] = await db.select({ balance: users.virtualBalance }).from(users).where(eq(users.id, userId));
  if (!existing && opts.unknownUser) throw opts.unknownUser();
  throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance', {
    required: toDecimalString(required),
    available: toDecimalString(existing?.balance ?? '0'),
  });
}

/**
 * Applies one balance change inside `tx`. Throws INSUFFICIENT_BALANCE (with required and
 * available amounts) when a debit would take the balance below zero, USER_NOT_FOUND when the
 * user does not exist. Amounts that round to zero are rejected: they are a caller's bug.
 */
export async function applyBalanceChange(tx: Tx, change: TBalanceChange): Promise<TBalanceChangeResult> {
  const amount = toMoney(change.amount);
  if (!amount.isFinite() || amount.isZero()) {
    throw new Error(`ledger: amount must be a non-zero finite decimal, got ${String(change.amount)}`);
  }
  // One round trip: the conditional update (which takes the row lock) and the transaction row
  // that reads its result (the same CTEs composite statements use). Nothing is written when the
  // update matched no row.
  const ctes = balanceChangeCtes({
    name: 'changed',
    transactionId: crypto.randomUUID(),
    userId: change.userId,
    amount,
    type: change.type,
    description: change.description,
    reference: change.reference,
    realizedPnL: change.realizedPnL,
    at: now(),
  });
  const [row] = rowsOf<{ virtual_balance: string; id: string }>(
    await tx.execute(sql`with ${ctes} select c.virtual_balance, r.id from changed c, changed_row r`),
  );

  if (!row) {
    return insufficientBalance(tx, change.userId, amount.negated(), {
      unknownUser: () => new AppError('USER_NOT_FOUND', 'User not found', { userId: change.userId }),
    });
  }

  const balanceAfter = dec(row.virtual_balance);
  return { transactionId: row.id, balanceBefore: balanceAfter.minus(amount), balanceAfter };
}

/** Credits `amount` (must be positive). */
export function credit(tx: Tx, change: TBalanceChange) {
  if (!dec(change.amount).gt(0)) throw new Error('ledger.credit: amount must be positive');
  return applyBalanceChange(tx, change);
}

/** Debits `amount` (given positive); fails with INSUFFICIENT_BALANCE rather than overdraw. */
export function debit(tx: Tx, change: TBalanceChange) {
  if (!dec(change.amount).gt(0)) throw new Error('ledger.debit: amount must be positive');
  return applyBalanceChange(tx, { ...change, amount: dec(change.amount).negated() });
}

/**
 * Books realised profit or loss without moving money (a position that resolved worthless: its
 * cost left the balance when it was bought). Changes only lifetimePnL.
 */
export async function recordRealizedPnL(tx: Tx, userId: string, pnl: TDecimalInput) {
  const p = toMoney(pnl);
  if (p.isZero()) return;
  await tx
    .update(users)
    .set({ lifetimePnL: sql`${users.lifetimePnL} + ${toDecimalString(p)}::numeric`, updatedAt: now() })
    .where(eq(users.id, userId));
}

/**
 * The ledger as two CTEs for a composite statement: `<name>` applies the change to the user's
 * row (only when `guard` holds and the balance stays non-negative) and returns the new balance;
 * `<name>_row` writes its transaction row from that result. Callers that need a whole trade in
 * one statement (lib/markets) compose these; the SQL that moves money stays here.
 */
export function balanceChangeCtes(opts: {
  name: string;
  transactionId: string;
  userId: string;
  amount: TDecimalInput;
  type: TTransactionType;
  description: string;
  reference?: { type: string; id: string };
  /** Realised profit or loss booked with the change (adds to lifetimePnL). */
  realizedPnL?: TDecimalInput;
  at: Date;
  /** Extra condition for the change to happen (e.g. that an earlier CTE produced a row). */
  guard?: ReturnType<typeof sql>;
}) {
  const amount = toMoney(opts.amount);
  const amountStr = toDecimalString(amount);
  const pnlStr = opts.realizedPnL === undefined ? '0' : toDecimalString(toMoney(opts.realizedPnL));
  const deposited = opts.type === 'deposit' && amount.isPositive() ? amountStr : '0';
  const withdrawn = opts.type === 'withdrawal' && amount.isNegative() ? toDecimalString(amount.negated()) : '0';
  const at = opts.at.toISOString();
  const name = sql.identifier(opts.name);
  const rowName = sql.identifier(`${opts.name}_row`);
  return sql`
    ${name} as (
      update ${users}
      set virtual_balance = virtual_balance + ${amountStr}::numeric,
          total_deposited = total_deposited + ${deposited}::numeric,
          total_withdrawn = total_withdrawn + ${withdrawn}::numeric,
          lifetime_pnl = lifetime_pnl + ${pnlStr}::numeric,
          updated_at = ${at}::timestamptz
      where id = ${opts.userId} and virtual_balance + ${amountStr}::numeric >= 0 and (${opts.guard ?? sql`true`})
      returning virtual_balance
    ),
    ${rowName} as (
      insert into ${balanceTransactions}
        (id, user_id, type, amount, balance_before, balance_after, description, reference_type, reference_id, created_at)
      select ${opts.transactionId}, ${opts.userId}, ${opts.type}, ${amountStr}::numeric, virtual_balance - ${amountStr}::numeric,
        virtual_balance, ${opts.description}, ${opts.reference?.type ?? null}, ${opts.reference?.id ?? null}, ${at}::timestamptz
      from ${name}
      returning id
    )`;
}

/**
 * A settlement whose amounts are computed by the statement itself (a position closed at the
 * locked mark): CTE `<name>` adds the sum of the legs to the user's balance once (only when
 * `guard` holds and the balance stays non-negative) and books `realizedPnL`; `<name>_rows`
 * writes one transaction row per non-zero leg, chained: the first leg's balanceAfter is the
 * second's balanceBefore. Each leg's `amount` is a numeric SQL expression already rounded to the
 * money scale.
 */
export function settlementCtes(opts: {
  name: string;
  userId: string;
  legs: { transactionId: string; type: TTransactionType; amount: SQL; description: string }[];
  realizedPnL?: SQL;
  reference?: { type: string; id: string };
  at: Date;
  guard?: SQL;
}) {
  const at = opts.at.toISOString();
  const name = sql.identifier(opts.name);
  const rowsName = sql.identifier(`${opts.name}_rows`);
  const amounts = opts.legs.map((l) => sql`(${l.amount})::numeric`);
  const total = sql.join(amounts, sql` + `);
  const rows = opts.legs.map((leg, i) => {
    const after = amounts.slice(i + 1);
    // balanceAfter of leg i = final balance − the legs after it.
    const afterSql = after.length ? sql`virtual_balance - (${sql.join(after, sql` + `)})` : sql`virtual_balance`;
    return sql`select ${leg.transactionId}::text as id, ${leg.type}::text as type, ${amounts[i]} as amount,
        ${afterSql} - ${amounts[i]} as balance_before, ${afterSql} as balance_after, ${leg.description}::text as description
      from ${name} where ${amounts[i]} <> 0`;
  });
  return sql`
    ${name} as (
      update ${users}
      set virtual_balance = virtual_balance + (${total}),
          lifetime_pnl = lifetime_pnl + (${opts.realizedPnL ?? sql`0`})::numeric,
          updated_at = ${at}::timestamptz
      where id = ${opts.userId} and virtual_balance + (${total}) >= 0 and (${opts.guard ?? sql`true`})
      returning virtual_balance
    ),
    ${rowsName} as (
      insert into ${balanceTransactions}
        (id, user_id, type, amount, balance_before, balance_after, description, reference_type, reference_id, created_at)
      select legs.id, ${opts.userId}, legs.type, legs.amount, legs.balance_before, legs.balance_after, legs.description,
        ${opts.reference?.type ?? null}, ${opts.reference?.id ?? null}, ${at}::timestamptz
      from (${sql.join(rows, sql` union all `)}) legs
      returning id
    )`;
}

/**
 * Books realised PnL for many users at once without moving money (positions liquidated by a
 * sweep: their margin left the balance when they opened). `source` is a CTE or subquery with
 * columns user_id and pnl; a user may appear several times.
 */
export function realizedPnLBookingCte(opts: { name: string; source: SQL; at: Date }) {
  return sql`
    ${sql.identifier(opts.name)} as (
      update ${users} u
      set lifetime_pnl = u.lifetime_pnl + s.pnl, updated_at = ${opts.at.toISOString()}::timestamptz
      from (select user_id, sum(pnl) as pnl from ${opts.source} src group by user_id) s
      where u.id = s.user_id
      returning u.id
    )`;
}
