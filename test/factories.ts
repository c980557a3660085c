/**
 * Test factories: users and world rows with sensible defaults, written through the same code
 * paths as production (balances through the ledger).
 */
import { eq } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { users, type TPoolRow, type TUserRow } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { credit } from '@/lib/ledger/ledger';
import { dec } from '@/lib/money/decimal';
import { createPool } from '@/lib/pools/service/create-pool';
import { generateReferralCode } from '@/lib/users/names';

let counter = 0;

export type TSeedUserOptions = {
  username?: string;
  displayName?: string;
  balance?: string;
  isAdmin?: boolean;
  isActor?: boolean;
  isBanned?: boolean;
  subject?: string;
};

/** A user with an auth subject (so tokens can be minted for it) and a starting balance. */
export const seedUser = async (opts: TSeedUserOptions = {}): Promise<TUserRow> => {
  const db = await getDb();
  counter++;
  const suffix = `${counter}${Math.floor(Math.random() * 1e6)}`.slice(0, 10);
  const username = opts.username ?? `user_${suffix}`;
  return db.transaction(async (tx) => {
    const at = now();
    const [row] = await tx
      .insert(users)
      .values({
        authSubject: opts.isActor ? null : (opts.subject ?? `test:${crypto.randomUUID()}`),
        username,
        displayName: opts.displayName ?? '',
        isAdmin: opts.isAdmin ?? false,
        isActor: opts.isActor ?? false,
        isBanned: opts.isBanned ?? false,
        referralCode: generateReferralCode(),
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    const balance = dec(opts.balance ?? '1000');
    if (balance.gt(0)) {
      await credit(tx, { userId: row!.id, amount: balance, type: 'deposit', description: 'Test balance' });
    }
    const [fresh] = await tx.select().from(users).where(eq(users.id, row!.id));
    return fresh!;
  });
};

export type TSeedPoolOptions = {
  /** The manager's seed capital (the pool's first lot); 10,000 unless said. */
  seed?: string;
  /** The performance fee rate, a fraction (0.2000 = 20%). */
  fee?: string;
  tier?: 'S' | 'A' | 'B' | 'C';
  /** Give the manager (an NPC actor, who normally never signs in) an auth subject, so tests can mint it a token. */
  managerCanSignIn?: boolean;
};

let poolCounter = 0;

/** A fresh pool managed by a fresh NPC actor (balance 0 but for its seed), through createPool as the world seed does. */
export const seedPool = async (opts: TSeedPoolOptions = {}): Promise<{ pool: TPoolRow; manager: TUserRow }> => {
  const actor = await seedUser({ isActor: true, balance: '0' });
  let manager = actor;
  if (opts.managerCanSignIn) {
    const [row] = await (await getDb()).update(users).set({ authSubject: `test:${crypto.randomUUID()}` }).where(eq(users.id, actor.id)).returning();
    manager = row!;
  }
  const pool = await withTransaction((tx) =>
    createPool(tx, {
      managerId: manager.id,
      name: `Test Pool ${++poolCounter}`,
      tier: opts.tier ?? 'B',
      performanceFeeRate: opts.fee ?? '0.2000',
      seedCapital: opts.seed ?? '10000',
    }),
  );
  return { pool, manager };
};
