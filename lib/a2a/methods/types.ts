/**
 * An A2A method: one declared entry (name, aliases real clients use, whether it reads or writes,
 * the permissions it requires, its rate-limit rule, params and result schemas, and `run`), called through the operation core
 * like a REST route. A method calls the same services as REST; it never touches the database
 * itself (test/structure.test.ts checks that no file under lib/a2a/methods imports db/).
 */
import type { TErrorCode } from '@/lib/errors/app-error';
import { z } from 'zod';
import type { TCaller } from '@/lib/auth/caller';
import type { TPermission } from '@/lib/auth/permissions';
import type { TRateLimitRule } from '@/lib/contracts/rate-limits';
import type { TKeyCapsClaim } from '@/lib/contracts/endpoint';

export type TMethodGroup = 'discovery' | 'markets' | 'portfolio' | 'orders' | 'trading' | 'payments' | 'moderation';

export type TA2aMethod<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> = {
  name: string;
  /** Other names clients send for it (the reference agent's `a2a.blockUser` for `moderation.blockUser`). */
  aliases?: readonly string[];
  summary: string;
  group: TMethodGroup;
  /** A read answers a banned caller too; a write does not (as REST's GET and POST). */
  kind: 'read' | 'write';
  /**
   * The permissions the caller's principal must have (lib/auth/permissions.ts), as a REST
   * operation's `requires`: ['read'] for a read, ['trade'] when it moves money, ['social'] for
   * blocks, mutes and reports.
   */
  requires: readonly TPermission[];
  /**
   * 'replica': a read that tolerates a second of lag runs on a read replica when one is
   * configured (as a REST operation's `reads`; the caller's own recent writes keep it on the primary).
   */
  reads?: 'replica';
  rateLimit?: TRateLimitRule;
  /** Moves money: honours the request's Idempotency-Key header (lib/idempotency), as REST's money POSTs do. */
  idempotent?: true;
  params: P;
  /** Params whose out-of-range values answer a code of their own, as the REST operation's (INVALID_LIMIT_PRICE). */
  fieldErrors?: Readonly<Record<string, TErrorCode>>;
  /** What an API key's caps hold the call to (a money-moving method), as a REST operation's `keyCaps`. */
  keyCaps?: (params: z.output<P>) => TKeyCapsClaim | null;
  /** Field names real clients use, mapped before validation (a `recipient` for `to`). */
  normalize?: (raw: Record<string, unknown>) => Record<string, unknown>;
  /** Its entry of A2A_RESULTS (lib/contracts/a2a.ts), which the OpenAPI document lists. */
  result: R;
  run: (ctx: { caller: TCaller; origin: string }, params: z.output<P>) => Promise<z.input<R>>;
};

export function defineMethod<P extends z.ZodType, R extends z.ZodType>(m: TA2aMethod<P, R>): TA2aMethod<P, R> {
  return m;
}

/** The first of `keys` present in `raw`, copied to `to` (aliases of a field). */
export function aliasField(raw: Record<string, unknown>, to: string, keys: readonly string[]) {
  if (raw[to] !== undefined) return raw;
  const from = keys.find((k) => raw[k] !== undefined);
  if (!from) return raw;
  const { [from]: value, ...rest } = raw;
  return { ...rest, [to]: value };
}
