/**
 * Many balance changes at once, for writers that replay a known sequence inside one transaction
 * (the world's backfilled past: lib/markets/history.ts, lib/perps/history.ts). The same rules as
 * ledger.ts, set-based: the users' rows are locked first (`lockBalances`), each change gets its
 * row with balanceBefore + amount = balanceAfter chained per user in the order given, no balance
 * goes below zero at any step (the whole batch is refused before anything is written), and each
 * user's row moves once, to the last balanceAfter, with lifetimePnL, totalDeposited and
 * totalWithdrawn moved by the batch's sums. Rows and balances are written by the caller's
 * transaction, so they commit together or not at all.
 */
import 'server-only';
import { inArray, sql } from 'drizzle-orm';
import { balanceTransactions, users } from '@/db/schema';
import { unnestSql, type Tx } from '@/db/client';
import { AppError } from '@/lib/errors/app-error';
import { dec, toDecimalString, toMoney, type TDecimal } from '@/lib/money/decimal';
import type { TBalanceChange, TTransactionType } from './ledger';

/** ledger.ts's change, with the time it happened (a replayed past has its own) and optionally its row's id. */
export type TBatchChange = TBalanceChange & {
  at: Date;
  /** The row's id when the caller must name it elsewhere; a fresh UUID otherwise. */
  transactionId?: string;
};

/**
 * A writer of history prepared for a list of items (locks taken, state loaded): `step(i)` replays
 * item i in memory, in the caller's time order (so two writers of one segment interleave exactly
 * as the services would have run), and `finish` writes what the steps made.
 */
export type THistoryWriter<TResult> = { step: (index: number) => void; finish: () => Promise<TResult> };

export type TChainedRow = {
  id: string;
  userId: string;
  type: TTransactionType;
  amount: string;
  balanceBefore: string;
  balanceAfter: string;
  description: string;
  referenceType: string | null;
  referenceId: string | null;
  createdAt: Date;
};

export type TUserTotals = { balance: TDecimal; pnl: TDecimal; deposited: TDecimal; withdrawn: TDecimal; at: Date | null };

/**
 * Pure: the rows of `changes` chained from `balances` (user → balance now), and each user's final
 * numbers. Throws INSUFFICIENT_BALANCE naming the first change that would go below zero, and on an
 * unknown user or a zero amount (a caller's bug).
 */
export function chainBalanceChanges(balances: ReadonlyMap<string, TDecimal>, changes: readonly TBatchChange[]) {
  const totals = new Map<string, TUserTotals>();
  const rows: TChainedRow[] = [];
  for (const c of changes) {
    const amount = toMoney(c.amount);
    if (!amount.isFinite() || amount.isZero()) throw new Error(`ledger batch: amount must be a non-zero finite decimal, got ${String(c.amount)}`);
    let t = totals.get(c.userId);
    if (!t) {
      const start = balances.get(c.userId);
      if (!start) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: c.userId });
      t = { balance: start, pnl: dec(0), deposited: dec(0), withdrawn: dec(0), at: null };
      totals.set(c.userId, t);
    }
    const after = t.balance.plus(amount);
    if (after.isNegative()) {
      throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance', { required: toDecimalString(amount.negated()), available: toDecimalString(t.balance) });
    }
    rows.push({
      id: c.transactionId ?? crypto.randomUUID(),
      userId: c.userId,
      type: c.type,
      amount: toDecimalString(amount),
      balanceBefore: toDecimalString(t.balance),
      balanceAfter: toDecimalString(after),
      description: c.description,
      referenceType: c.reference?.type ?? null,
      referenceId: c.reference?.id ?? null,
      createdAt: c.at,
    });
    t.balance = after;
    if (c.realizedPnL !== undefined) t.pnl = t.pnl.plus(toMoney(c.realizedPnL));
    if (c.type === 'deposit' && amount.isPositive()) t.deposited = t.deposited.plus(amount);
    if (c.type === 'withdrawal' && amount.isNegative()) t.withdrawn = t.withdrawn.minus(amount);
    t.at = c.at;
  }
  return { rows, totals };
}

/** Locks the users' rows (in id order, so two batches never deadlock) and returns their balances. */
export async function lockBalances(tx: Tx, userIds: Iterable<string>): Promise<Map<string, TDecimal>> {
  const ids = [...new Set(userIds)].sort();
  if (!ids.length) return new Map();
  const rows = await tx
    .select({ id: users.id, balance: users.virtualBalance })
    .from(users)
    .where(inArray(users.id, ids))
    .orderBy(users.id)
    .for('no key update');
  return new Map(rows.map((r) => [r.id, dec(r.balance)]));
}

/** Rows per statement: each column is one text[] parameter, so the size, not the parameter count, bounds it. */
const CHUNK = 5000;

/**
 * Applies `changes` in order inside `tx`: locks the users, chains the rows (refusing the whole
 * batch when one step would overdraw), inserts the rows and moves each user's row once. Returns
 * each user's balance after the batch. Rows go in as `unnest` of one array per column, in chain
 * order (so `seq` follows the chain).
 */
export async function applyBalanceChanges(tx: Tx, changes: readonly TBatchChange[]): Promise<Map<string, TDecimal>> {
  if (!changes.length) return new Map();
  const balances = await lockBalances(
    tx,
    changes.map((c) => c.userId),
  );
  const { rows, totals } = chainBalanceChanges(balances, changes);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const c = rows.slice(i, i + CHUNK);
    const u = unnestSql('v', {
      id: c.map((r) => r.id),
      user_id: c.map((r) => r.userId),
      type: c.map((r) => r.type),
      amount: c.map((r) => r.amount),
      before: c.map((r) => r.balanceBefore),
      after: c.map((r) => r.balanceAfter),
      description: c.map((r) => r.description),
      reference_type: c.map((r) => r.referenceType),
      reference_id: c.map((r) => r.referenceId),
      at: c.map((r) => r.createdAt.toISOString()),
    });
    await tx.execute(sql`
      insert into ${balanceTransactions}
        (id, user_id, type, amount, balance_before, balance_after, description, reference_type, reference_id, created_at)
      select v.id, v.user_id, v.type, v.amount::numeric, v.before::numeric, v.after::numeric, v.description,
        v.reference_type, v.reference_id, v.at::timestamptz
      from ${u}`);
  }
  const list = [...totals.entries()];
  for (let i = 0; i < list.length; i += CHUNK) {
    const c = list.slice(i, i + CHUNK);
    const v = unnestSql('v', {
      id: c.map(([id]) => id),
      balance: c.map(([, t]) => toDecimalString(t.balance)),
      pnl: c.map(([, t]) => toDecimalString(t.pnl)),
      deposited: c.map(([, t]) => toDecimalString(t.deposited)),
      withdrawn: c.map(([, t]) => toDecimalString(t.withdrawn)),
      at: c.map(([, t]) => t.at!.toISOString()),
    });
    await tx.execute(sql`
      update ${users} u set
        virtual_balance = v.balance::numeric,
        lifetime_pnl = u.lifetime_pnl + v.pnl::numeric,
        total_deposited = u.total_deposited + v.deposited::numeric,
        total_withdrawn = u.total_withdrawn + v.withdrawn::numeric,
        updated_at = v.at::timestamptz
      from ${v}
      where u.id = v.id`);
  }
  return new Map(list.map(([id, t]) => [id, t.balance]));
}

/**
 * A batch shared by several writers of one segment of history (predictions and perps of the same
 * minutes): each writer asks `balanceOf(user, at)` before a debit (to refuse what the service would
 * refuse) and adds its changes with `push`; `apply` chains all of them in time order (stable: the
 * writers' own order within one instant) and writes them once.
 *
 * The writers run one after the other, each in time order, so a writer may push a debit earlier
 * than changes another writer already pushed. `balanceOf(user, at)` therefore answers the least
 * balance the time-ordered chain would have from `at` on: the start plus everything up to `at`,
 * then the lowest point the later changes reach. A debit within it keeps every prefix of the
 * chain at or above zero, so `apply` never finds an overdraft (it still checks, and refuses the
 * whole batch if one appears). A later trade already pushed keeps its place: an earlier one that
 * would starve it is the one refused.
 */
export class LedgerBatch {
  private readonly changes: TBatchChange[] = [];
  private readonly start: Map<string, TDecimal>;
  private readonly byUser = new Map<string, { t: number; amount: TDecimal }[]>();
  /** Each user's balance after every change pushed so far. */
  private readonly running = new Map<string, TDecimal>();

  private constructor(balances: Map<string, TDecimal>) {
    this.start = balances;
  }

  /** Locks the users' rows (id order) and starts a batch from their balances. */
  static async open(tx: Tx, userIds: Iterable<string>) {
    return new LedgerBatch(await lockBalances(tx, userIds));
  }

  /** A batch over balances already locked by the caller (and the unit tests' in-memory start). */
  static from(balances: ReadonlyMap<string, TDecimal>) {
    return new LedgerBatch(new Map(balances));
  }

  /** The pushed changes in the order `apply` chains them: time, then push order. */
  ordered(): TBatchChange[] {
    return this.changes
      .map((c, i) => ({ c, i }))
      .sort((a, b) => a.c.at.getTime() - b.c.at.getTime() || a.i - b.i)
      .map((x) => x.c);
  }

  /**
   * What the user can spend at `at` without the time-ordered chain going below zero at any point
   * from then on (see the class comment); undefined for a user the batch did not lock.
   */
  balanceOf(userId: string, at: Date): TDecimal | undefined {
    const start = this.start.get(userId);
    if (!start) return undefined;
    const t = at.getTime();
    const list = this.byUser.get(userId) ?? [];
    // Writers stepped in one time order push nothing later than `at`: the running balance.
    if (!list.length || list[list.length - 1]!.t <= t) return this.running.get(userId) ?? start;
    let running = start;
    let i = 0;
    for (; i < list.length && list[i]!.t <= t; i++) running = running.plus(list[i]!.amount);
    let least = running;
    for (; i < list.length; i++) {
      running = running.plus(list[i]!.amount);
      if (running.lt(least)) least = running;
    }
    return least;
  }

  push(change: TBatchChange) {
    if (!this.start.has(change.userId)) throw new Error(`ledger batch: ${change.userId} was not locked by this batch`);
    const list = this.byUser.get(change.userId) ?? [];
    // Kept in time order (after any change of the same instant, as apply chains them).
    const t = change.at.getTime();
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.t <= t) lo = mid + 1;
      else hi = mid;
    }
    const amount = toMoney(change.amount);
    list.splice(lo, 0, { t, amount });
    this.running.set(change.userId, (this.running.get(change.userId) ?? this.start.get(change.userId)!).plus(amount));
    this.byUser.set(change.userId, list);
    this.changes.push(change);
  }

  /** Chains every pushed change in time order and writes the rows and balances in `tx`. */
  async apply(tx: Tx): Promise<number> {
    const ordered = this.ordered();
    await applyBalanceChanges(tx, ordered);
    return ordered.length;
  }
}
