/**
 * Holding a call to its API key's caps (CONTRACT.md "API keys"), before the call writes anything.
 * The per-order amount and the leverage cap are pure (./limits.ts). The daily limit is a row per
 * key and UTC day (game time) raised by one conditional upsert that never passes the limit, so
 * two concurrent calls cannot both spend the last of it; when the call then fails (or replays an
 * earlier answer) the amount is given back. What a day counts is the currency committed: a buy's
 * amount, a perp's margin, a limit order's reserve when it is placed (a cap counts open orders'
 * reservations); a later cancel does not give the day's room back. A dry run is held to the caps
 * (its answer says whether the real call would pass) and commits nothing.
 */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { apiKeySpend } from '@/db/schema';
import type { TApiKeyGrant } from '@/lib/auth/api-key-credentials';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { dec, toDecimalString } from '@/lib/money/decimal';
import { claimAmount, nextUtcDay, perCallBreach, utcDay, type TKeyCapsClaim } from './limits';

const refusal = (message: string, details: Record<string, unknown>) => new AppError('KEY_LIMIT_EXCEEDED', message, details);

const spentOn = async (keyId: string, day: string) => {
  const db = await getDb();
  const [row] = await db.select({ amount: apiKeySpend.amount }).from(apiKeySpend).where(and(eq(apiKeySpend.keyId, keyId), eq(apiKeySpend.day, day)));
  return dec(row?.amount ?? 0);
};

/**
 * Refuses the call (403 KEY_LIMIT_EXCEEDED, the cap in `details`) when it breaks one of the key's
 * caps; otherwise takes its amount from the day's room and answers how to give it back (null when
 * nothing was taken).
 */
export async function holdKeyCaps(grant: TApiKeyGrant, claim: TKeyCapsClaim): Promise<(() => Promise<void>) | null> {
  const breach = perCallBreach(grant, claim);
  if (breach) {
    const what = breach.cap === 'maxOrderAmount' ? 'per-order amount' : 'leverage cap';
    throw refusal(`This API key's ${what} is ${breach.limit}; the call asks for ${breach.requested}`, { ...breach, keyId: grant.id });
  }
  if (grant.dailyLimit === null) return null;
  const amount = claimAmount(claim);
  if (amount.lte(0)) return null;
  const at = now();
  const day = utcDay(at);
  const over = async () => {
    const spent = await spentOn(grant.id, day);
    return refusal(`This API key's daily limit is ${toDecimalString(grant.dailyLimit!)}; ${toDecimalString(spent)} is committed today`, {
      cap: 'dailyLimit',
      limit: toDecimalString(grant.dailyLimit!),
      spent: toDecimalString(spent),
      requested: toDecimalString(amount),
      resetsAt: nextUtcDay(at).toISOString(),
      keyId: grant.id,
    });
  };
  if (claim.dryRun) {
    if ((await spentOn(grant.id, day)).plus(amount).gt(grant.dailyLimit)) throw await over();
    return null;
  }
  if (amount.gt(grant.dailyLimit)) throw await over();
  const db = await getDb();
  const amt = toDecimalString(amount);
  const taken = rowsOf<{ amount: string }>(
    await db.execute(sql`
      insert into ${apiKeySpend} (key_id, day, amount) values (${grant.id}, ${day}::date, ${amt}::numeric)
      on conflict (key_id, day) do update set amount = ${apiKeySpend}.amount + excluded.amount
        where ${apiKeySpend}.amount + excluded.amount <= ${toDecimalString(grant.dailyLimit)}::numeric
      returning amount`),
  );
  if (taken.length === 0) throw await over();
  return async () => {
    await (await getDb())
      .update(apiKeySpend)
      .set({ amount: sql`greatest(${apiKeySpend.amount} - ${amt}::numeric, 0)` })
      .where(and(eq(apiKeySpend.keyId, grant.id), eq(apiKeySpend.day, day)));
  };
}
