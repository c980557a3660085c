/**
 * Each account's ledger totals are kept (account_totals, migration 0034) rather than summed on every
 * read: the trigger's classes are lib/ledger's LEDGER_CLASS and lib/users' TRADE_TYPES exactly; after
 * concurrent buys and sales by a referred player (the referrer's fee lands in the same statements)
 * and a pool deposit, the totals are the ledger's sums (test/invariants expectAccountTotals, which
 * every suite's expectLedgerChain also runs) and GET /api/users/me shows the trade count; the reads
 * of an account's numbers and stats no longer touch the ledger; and the migration's backfill of an
 * existing ledger gives the same totals.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as meRoute } from '@/app/api/users/me/route';
import { getDb, rowsOf } from '@/db/client';
import { accountTotals, ledgerTypeClasses, users, type TUserRow } from '@/db/schema';
import { callerOfUser } from '@/lib/auth/caller';
import { accountNumbersSql } from '@/lib/equity/sql';
import { LEDGER_CLASS } from '@/lib/ledger/account-numbers';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { createMarket } from '@/lib/markets/service/create-market';
import { sellShares } from '@/lib/markets/service/sell-shares';
import { depositToPool } from '@/lib/pools/service/deposit';
import { statsCountFields, TRADE_TYPES } from '@/lib/users/queries';
import { seedWorld } from '@/lib/world/seed/world';
import { seedPool, seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';
import { expectAccountTotals, expectLedgerChain } from '@/test/invariants';

let buyer: TUserRow;
let referrer: TUserRow;
let marketId: string;

const planOf = async (query: ReturnType<typeof sql>) =>
  rowsOf<Record<string, string>>(await (await getDb()).execute(sql`explain ${query}`))
    .map((r) => Object.values(r)[0])
    .join('\n');

describe('kept ledger totals', () => {
  beforeAll(async () => {
    const db = await getDb();
    await seedWorld(db);
    referrer = await seedUser({ balance: '100' });
    buyer = await seedUser({ balance: '5000' });
    await db.update(users).set({ referredById: referrer.id }).where(eq(users.id, buyer.id));
    buyer = (await db.select().from(users).where(eq(users.id, buyer.id)))[0]!;
    marketId = (await createMarket({ caller: null, text: 'Will the kept totals match the ledger?', resolutionDate: new Date(Date.now() + 9 * 86_400_000) })).id;
  });

  it('classifies the ledger types as lib/ledger and lib/users do', async () => {
    const rows = await (await getDb()).select().from(ledgerTypeClasses);
    expect(Object.fromEntries(rows.map((r) => [r.type, r.class]))).toEqual({ ...LEDGER_CLASS });
    expect(rows.filter((r) => r.isTrade).map((r) => r.type).sort()).toEqual([...TRADE_TYPES].sort());
  });

  it('keeps the ledger sums through concurrent trades, a referral fee and a pool deposit', async () => {
    const caller = callerOfUser(buyer);
    await Promise.all(Array.from({ length: 8 }, (_, i) => buyShares({ caller, marketId, outcome: i % 2 ? 'YES' : 'NO', amount: `${10 + i}.125` })));
    await Promise.all([
      sellShares({ caller, marketId, outcome: 'YES', shares: 3 }),
      sellShares({ caller, marketId, outcome: 'NO', shares: 2 }),
      buyShares({ caller, marketId, outcome: 'YES', amount: '7.5' }),
    ]);
    const { pool } = await seedPool();
    await depositToPool({ caller, poolId: pool.id, amount: '40.5' });
    await expectLedgerChain([buyer.id, referrer.id]);
    await expectAccountTotals();

    const [kept] = await (await getDb()).select().from(accountTotals).where(eq(accountTotals.userId, buyer.id));
    expect(kept!.trades).toBe(11);
    expect(Number(kept!.flowPools)).toBeCloseTo(-40.5, 8);
    const [fee] = await (await getDb()).select().from(accountTotals).where(eq(accountTotals.userId, referrer.id));
    expect(Number(fee!.contributions)).toBeGreaterThan(100);
    const me = await call(meRoute, '/api/users/me', { token: await tokenFor(buyer) });
    expect(me.body.user.stats.tradesCount).toBe(11);
  });

  it("reads an account's numbers and stats without the ledger", async () => {
    const numbers = await planOf(sql`select * from (${accountNumbersSql(sql`unnest(array[${buyer.id}]::text[])`)}) a`);
    const stats = await planOf(sql`select ${sql.join(Object.values(statsCountFields(sql`${buyer.id}::text`)), sql`, `)}`);
    expect(numbers).toMatch(/account_totals/);
    expect(numbers).not.toMatch(/balance_transactions/);
    expect(stats).not.toMatch(/balance_transactions/);
  });

  it("backfills an existing ledger's totals as the trigger keeps them", async () => {
    const db = await getDb();
    const before = await db.select().from(accountTotals);
    expect(before.length).toBeGreaterThan(2);
    const migration = fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'db', 'migrations', '0034_account_totals.sql'), 'utf8');
    const backfill = migration.slice(migration.lastIndexOf('-- The ledger written so far.'));
    await db.execute(sql`delete from account_totals`);
    await db.execute(sql.raw(backfill));
    await expectAccountTotals();
    const after = await db.select().from(accountTotals);
    const byUser = (rows: typeof before) => Object.fromEntries(rows.map((r) => [r.userId, r]));
    expect(byUser(after)).toEqual(byUser(before));
  });
});
