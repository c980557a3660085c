/**
 * lib/referrals/share.ts in SQL, for statements that compute the fee themselves (the perps
 * close): the same half, truncated to the money scale. Who earns it (referralEarner) is known
 * before the statement is built, so only the arithmetic is here; share-sql.int.test.ts holds both
 * equal digit for digit.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { MONEY_SCALE } from '@/lib/money/decimal';

/** referralShare(fee).share: trunc(fee / 2, 8); `fee` is a numeric SQL expression. */
export function referralShareSql(fee: SQL): SQL {
  return sql`trunc((${fee}) / 2, ${sql.raw(String(MONEY_SCALE))})`;
}
