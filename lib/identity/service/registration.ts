/**
 * On-chain identity registration of a user or an agent, as an onboarding intent:
 *   start      one intent per user, ONCHAIN_IN_PROGRESS, with a token id from identity_token_seq
 *              (unique across everyone, known at once); a second call answers the same intent,
 *              and a FAILED intent is retried (back to ONCHAIN_IN_PROGRESS)
 *   process    the game tick hands intents in progress to the registrar (simulated or EVM),
 *              outside any transaction (a mint waits for its receipt), then records the outcome:
 *              COMPLETED with the transaction hash and the user onChainRegistered, or FAILED
 *              with the registrar's reason. A mint is idempotent per token id, so two ticks that
 *              race on one intent mint once.
 */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction, type DbOrTx, type Tx } from '@/db/client';
import { onboardingIntents, users, type TOnboardingIntentRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { currentRegistrar, currentRegistrarKind } from '../current-registrar';
import { RegistrarError, type THexAddress } from '../registrar';

export const INTENT_STATUSES = ['ONCHAIN_IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;
export type TIntentStatus = (typeof INTENT_STATUSES)[number];

export function toIntentDto(i: TOnboardingIntentRow) {
  return {
  id: i.id,
  status: i.status as TIntentStatus,
  nftTokenId: i.nftTokenId,
  registrar: i.registrar as 'simulated' | 'evm',
  txHash: i.txHash,
  ownerAddress: i.ownerAddress,
  failureReason: i.failureReason,
  attempts: i.attempts,
  createdAt: i.createdAt.toISOString(),
  updatedAt: i.updatedAt.toISOString(),
  completedAt: i.completedAt?.toISOString() ?? null,
};
}

const findIntent = async (db: DbOrTx, userId: string) => {
  const [row] = await db.select().from(onboardingIntents).where(eq(onboardingIntents.userId, userId));
  return row ?? null;
};

/** Starts (or answers, or retries) the user's registration inside `tx`. */
export async function startRegistrationIn(tx: Tx, userId: string): Promise<TOnboardingIntentRow> {
  const at = now();
  const existing = await findIntent(tx, userId);
  if (existing?.status === 'FAILED') {
    const [retried] = await tx
      .update(onboardingIntents)
      .set({ status: 'ONCHAIN_IN_PROGRESS', failureReason: null, registrar: currentRegistrarKind(), updatedAt: at })
      .where(and(eq(onboardingIntents.id, existing.id), eq(onboardingIntents.status, 'FAILED')))
      .returning();
    return retried ?? (await findIntent(tx, userId))!;
  }
  if (existing) return existing;
  const [created] = await tx
    .insert(onboardingIntents)
    .values({
      userId,
      status: 'ONCHAIN_IN_PROGRESS',
      nftTokenId: sql`nextval('identity_token_seq')::int`,
      registrar: currentRegistrarKind(),
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing({ target: onboardingIntents.userId })
    .returning();
  return created ?? (await findIntent(tx, userId))!;
}

/** POST /api/users/onboarding/onchain: the caller's own registration. */
export async function startOnchainRegistration(input: { caller: TCaller }) {
  const intent = await withTransaction((tx) => startRegistrationIn(tx, input.caller.userId));
  return { onboardingIntent: toIntentDto(intent) };
}

/** The caller's registration status (null before they started one). */
export async function readRegistration(userId: string) {
  const db = await getDb();
  const [intent, [user]] = await Promise.all([
    findIntent(db, userId),
    db.select({ onChainRegistered: users.onChainRegistered, walletAddress: users.walletAddress }).from(users).where(eq(users.id, userId)),
  ]);
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId });
  return { onChainRegistered: user.onChainRegistered, onboardingIntent: intent ? toIntentDto(intent) : null };
}

/** GET|POST /api/agents/onboard: an authenticated agent's registration, started by POST, reported by both. */
export async function onboardAgent(input: { caller: TCaller; start: boolean }) {
  if (!input.caller.isAgent) throw new AppError('NOT_AN_AGENT', 'Only an agent session can register an agent; players use /api/users/onboarding/onchain');
  if (input.start) await withTransaction((tx) => startRegistrationIn(tx, input.caller.userId));
  const status = await readRegistration(input.caller.userId);
  return { agentId: input.caller.userId, ...status };
}

const MAX_PER_RUN = 20;

/** The game tick's step: hands pending intents to the registrar and records each outcome. */
export async function processPendingRegistrations(opts: { deadline?: number } = {}) {
  const db = await getDb();
  const pending = rowsOf<{ id: string; user_id: string; nft_token_id: number; wallet_address: string | null }>(
    await db.execute(sql`
      select i.id, i.user_id, i.nft_token_id, u.wallet_address
      from ${onboardingIntents} i join ${users} u on u.id = i.user_id
      where i.status = 'ONCHAIN_IN_PROGRESS'
      order by i.created_at, i.id limit ${MAX_PER_RUN}`),
  );
  const registrar = await currentRegistrar();
  let completed = 0;
  let failed = 0;
  for (const p of pending) {
    if (opts.deadline !== undefined && performance.now() > opts.deadline) break;
    let outcome: { ok: true; txHash: string | null; owner: string | null } | { ok: false; reason: string };
    try {
      const receipt = await registrar.register({
        tokenId: Number(p.nft_token_id),
        userId: p.user_id,
        owner: (p.wallet_address as THexAddress | null) ?? null,
      });
      outcome = { ok: true, ...receipt };
    } catch (e) {
      outcome = { ok: false, reason: e instanceof RegistrarError ? e.reason : 'The registry did not answer' };
      // The operator's view: viem's short message (its full message may carry the RPC URL and an API key in it).
      const cause = e instanceof RegistrarError ? (e.cause as { shortMessage?: string } | undefined)?.shortMessage : undefined;
      console.warn(`[identity] registration of token ${p.nft_token_id} failed: ${outcome.reason}${cause ? ` (${cause})` : ''}`);
      if (!(e instanceof RegistrarError)) console.error('[identity] unexpected registrar error:', e);
    }
    const at = now();
    await withTransaction(async (tx) => {
      const where = and(eq(onboardingIntents.id, p.id), eq(onboardingIntents.status, 'ONCHAIN_IN_PROGRESS'));
      if (outcome.ok) {
        const [done] = await tx
          .update(onboardingIntents)
          .set({
            status: 'COMPLETED',
            txHash: outcome.txHash,
            ownerAddress: outcome.owner,
            attempts: sql`${onboardingIntents.attempts} + 1`,
            completedAt: at,
            updatedAt: at,
          })
          .where(where)
          .returning({ id: onboardingIntents.id });
        if (done) {
          await tx.update(users).set({ onChainRegistered: true, updatedAt: at }).where(eq(users.id, p.user_id));
          completed++;
        }
      } else {
        const [marked] = await tx
          .update(onboardingIntents)
          .set({ status: 'FAILED', failureReason: outcome.reason.slice(0, 500), attempts: sql`${onboardingIntents.attempts} + 1`, updatedAt: at })
          .where(where)
          .returning({ id: onboardingIntents.id });
        if (marked) failed++;
      }
    });
  }
  return { pending: pending.length, completed, failed };
}
