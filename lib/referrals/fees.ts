/**
 * The referrer's half of a referred player's trading fee, in every product: the ledger credits it
 * (type referral_fee) and a referral_fees row names who was referred and where the fee came from,
 * in the same statement or transaction as the trade. Pure SQL builders here; the trade services
 * splice them in, so no trade writes referral_fees by hand.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { referralFees } from '@/db/schema';
import type { Tx } from '@/db/client';
import { balanceChangeCtes, settlementCtes } from '@/lib/ledger/ledger';
import { toDecimalString, toMoney, type TDecimalInput } from '@/lib/money/decimal';

export type TReferralSource = 'predictions' | 'perps' | 'pools';
export const REFERRAL_SOURCES: readonly TReferralSource[] = ['predictions', 'perps', 'pools'];

type TReferralBase = {
  /** CTE name prefix; `<name>`, `<name>_row(s)` and `<name>_fee` are defined. */
  name: string;
  referrerId: string;
  referredUserId: string;
  source: TReferralSource;
  description: string;
  reference?: { type: string; id: string };
  at: Date;
  guard: SQL;
};

const recordCte = (o: TReferralBase, rows: string, amount: SQL) => sql`
    ${sql.identifier(`${o.name}_fee`)} as (
      insert into ${referralFees} (id, referrer_id, referred_user_id, source, amount, transaction_id, created_at)
      select ${crypto.randomUUID()}, ${o.referrerId}, ${o.referredUserId}, ${o.source}, ${amount}, r.id, ${o.at.toISOString()}::timestamptz
      from ${sql.identifier(rows)} r
      returning id
    )`;

/** CTEs crediting a referral fee known before the statement runs (a buy's or an open's fee split). */
export function referralFeeCtes(o: TReferralBase & { amount: TDecimalInput }) {
  const amount = toMoney(o.amount);
  return sql`${balanceChangeCtes({
    name: o.name,
    transactionId: crypto.randomUUID(),
    userId: o.referrerId,
    amount,
    type: 'referral_fee',
    description: o.description,
    reference: o.reference,
    at: o.at,
    guard: o.guard,
  })}, ${recordCte(o, `${o.name}_row`, sql`${toDecimalString(amount)}::numeric`)}`;
}

/**
 * CTEs crediting a referral fee the statement computes itself (a close's fee at the locked
 * mark); `amount` is a numeric SQL expression already rounded to the money scale. Nothing is
 * written when it is zero.
 */
export function referralFeeSqlCtes(o: TReferralBase & { amount: SQL }) {
  return sql`${settlementCtes({
    name: o.name,
    userId: o.referrerId,
    legs: [{ transactionId: crypto.randomUUID(), type: 'referral_fee', amount: o.amount, description: o.description }],
    reference: o.reference,
    at: o.at,
    guard: o.guard,
  })}, ${recordCte(o, `${o.name}_rows`, sql`(${o.amount})::numeric`)}`;
}

/** Records a referral fee already credited through the ledger inside `tx` (services that move money step by step). */
export async function recordReferralFee(
  tx: Tx,
  o: { referrerId: string; referredUserId: string; source: TReferralSource; amount: TDecimalInput; transactionId: string; at: Date },) {
  await tx.insert(referralFees).values({
    referrerId: o.referrerId,
    referredUserId: o.referredUserId,
    source: o.source,
    amount: toDecimalString(toMoney(o.amount)),
    transactionId: o.transactionId,
    createdAt: o.at,
  });
}
