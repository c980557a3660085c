/**
 * Creating a pool (the world seed, tests): its own account (a users row with isPoolAccount that
 * never signs in), the pool row, and the manager's seed capital: granted to the manager through
 * the ledger, then deposited by the same code as any deposit as the first lot (isSeed). The pool
 * therefore never starts empty, and no depositor can receive what someone else put in.
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { pools, users } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { credit } from '@/lib/ledger/ledger';
import { dec } from '@/lib/money/decimal';
import { generateReferralCode } from '@/lib/users/names';
import { depositInTx } from './deposit';
import { lockPool } from './shared';

export type TCreatePoolInput = {
  id?: string;
  managerId: string;
  name: string;
  description?: string;
  tier: 'S' | 'A' | 'B' | 'C';
  performanceFeeRate: string;
  seedCapital: string;
};

/** Creates the pool in `tx`; returns its row (with the seed deposited). */
export async function createPool(tx: Tx, input: TCreatePoolInput) {
  const at = now();
  const id = input.id ?? crypto.randomUUID();
  const handle = id.replace(/[^A-Za-z0-9]/g, '').slice(0, 20).toLowerCase();
  const [account] = await tx
    .insert(users)
    .values({
      id: `pool-account-${id}`,
      username: `pool_${handle}`,
      displayName: input.name,
      bio: `The trading account of ${input.name}.`,
      isPoolAccount: true,
      profileComplete: true,
      referralCode: generateReferralCode(),
      createdAt: at,
      updatedAt: at,
    })
    .returning({ id: users.id });
  await tx.insert(pools).values({
    id,
    npcActorId: input.managerId,
    accountUserId: account!.id,
    name: input.name,
    description: input.description ?? '',
    tier: input.tier,
    performanceFeeRate: input.performanceFeeRate,
    createdAt: at,
  });
  if (dec(input.seedCapital).gt(0)) {
    await credit(tx, { userId: input.managerId, amount: input.seedCapital, type: 'deposit', description: `Seed capital for ${input.name}` });
    const pool = await lockPool(tx, id);
    await depositInTx(tx, { pool, userId: input.managerId, amount: input.seedCapital, isSeed: true });
  }
  const [row] = await tx.select().from(pools).where(eq(pools.id, id));
  return row!;
}
