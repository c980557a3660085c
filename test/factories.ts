/**
 * Test factories: users and world rows with sensible defaults, written through the same code
 * paths as production (balances through the ledger).
 */
import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { users, type TUserRow } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { credit } from '@/lib/ledger/ledger';
import { dec } from '@/lib/money/decimal';
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
