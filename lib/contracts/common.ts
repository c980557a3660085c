/** Schemas shared by several domains: the error envelope, pagination, decimals, ids. */
import { z } from 'zod';
import { visibleLength } from '@/lib/posts/text';

export const ZSuccess = z.literal(true);

export const ZErrorBody = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** A decimal string such as "1000" or "12.5" (balances are never binary floats). */
export const ZDecimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'decimal string');

export const ZTimestamp = z.string().describe('ISO 8601 UTC timestamp');

export const ZIdParam = z.string().min(1).max(200);

/** `{userId}` in a path: a user id (some routes also take a username or wallet address). */
export const ZUserIdParams = z.object({ userId: ZIdParam });

/** An empty query value ("?limit=") is not a number: without this, coercion would read it as 0. */
const emptyIsInvalid = (v: unknown) => (v === '' ? Number.NaN : v);

/** A query integer with bounds ("limit=abc" or "limit=" is an INVALID_PARAMETER). */
export function zQueryIntOptional(opts: { min?: number; max?: number } = {}) {
  return z.preprocess(emptyIsInvalid, z.coerce.number().int().min(opts.min ?? 0).max(opts.max ?? 1_000_000).optional());
}

/** A query integer with a default and bounds ("limit=abc" or "limit=" is an INVALID_PARAMETER). */
export function zQueryInt(opts: { default: number; min?: number; max?: number }) {
  return z.preprocess(
    emptyIsInvalid,
    z.coerce
      .number()
      .int()
      .min(opts.min ?? 0)
      .max(opts.max ?? 1_000_000)
      .default(opts.default),
  );
}

/** A query boolean: the strings the document lists, nothing else. */
export const zQueryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * A value of a small upper-case set (YES/NO) as clients write it: upper, lower or capitalised,
 * each listed so the document is exact (a generated client gets the union), normalised to upper case.
 */
export function zCaseEnum<const T extends readonly [string, ...string[]]>(values: T, to: 'upper' | 'lower') {
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
  const spellings = [...new Set(values.flatMap((v) => [v.toUpperCase(), v.toLowerCase(), cap(v)]))] as [string, ...string[]];
  return z.enum(spellings).transform((v) => (to === 'upper' ? v.toUpperCase() : v.toLowerCase()) as T[number]);
}

/** Digits of a decimal string input, at most: far beyond any amount, far below any cost. */
const DECIMAL_INPUT_MAX_LENGTH = 40;
const DECIMAL_INPUT = /^-?\d+(\.\d+)?$/;

/**
 * An amount as a JSON number or, for exact input, a decimal string ("12.5"), within
 * [min, max] (exclusive of min when `exclusiveMin`). Out of range is a `too_small` / `too_big`
 * issue, so an endpoint can answer it with a code of its own (fieldErrors: INVALID_TRADE_SIZE);
 * a value that is not a number at all is a plain VALIDATION_ERROR. The output keeps the input
 * (number or string), so services convert it exactly.
 */
export function zAmountInput(opts: { min: number; max: number; exclusiveMin?: boolean; description?: string }) {
  const num = opts.exclusiveMin ? z.number().gt(opts.min).max(opts.max) : z.number().min(opts.min).max(opts.max);
  const str = z
    .string()
    .max(DECIMAL_INPUT_MAX_LENGTH)
    .regex(DECIMAL_INPUT, 'must be a number')
    .superRefine((s, ctx) => {
      const v = Number(s);
      if (opts.exclusiveMin ? v <= opts.min : v < opts.min) {
        ctx.addIssue({ code: 'too_small', origin: 'number', minimum: opts.min, inclusive: !opts.exclusiveMin, input: s, message: `must be ${opts.exclusiveMin ? 'greater than' : 'at least'} ${opts.min}` });
      } else if (v > opts.max) {
        ctx.addIssue({ code: 'too_big', origin: 'number', maximum: opts.max, inclusive: true, input: s, message: `must be at most ${opts.max}` });
      }
    });
  const u = z.union([num, str]);
  return opts.description ? u.describe(opts.description) : u;
}

/**
 * Free text counted as a reader counts it (grapheme clusters, lib/posts/text.ts). The schema
 * caps the raw length cheaply (`rawMax` UTF-16 units: by default 12 per character, enough for
 * `max` family emoji) so the
 * exact count runs only on bounded input; the document declares maxLength = `max`, which a
 * client can check: a text of at most `max` code points never has more than `max` characters.
 */
/** UTF-16 units allowed per counted character before counting (a family emoji is 11). */
export const RAW_UNITS_PER_CHAR = 12;

export function zText(opts: { max: number; min?: number; rawMax?: number; description?: string }) {
  const min = opts.min ?? 0;
  const counted = min > 0 ? `${min} to ${opts.max}` : `at most ${opts.max}`;
  return z
    .string()
    .trim()
    .max(opts.rawMax ?? opts.max * RAW_UNITS_PER_CHAR, { abort: true })
    .refine((s) => {
      const n = visibleLength(s);
      return n >= min && n <= opts.max;
    }, `must be ${counted} characters`)
    .meta({
      ...(min > 0 ? { minLength: min } : {}),
      maxLength: opts.max,
      description: opts.description ?? `${counted} characters as a reader counts them (grapheme clusters)`,
    });
}

export const ZPagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  pages: z.number().int(),
});

/** A type with intersections flattened at every depth, so two spellings of one shape compare equal. */
type TFlat<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? TFlat<E>[]
    : T extends object
      ? { [K in keyof T]: TFlat<T[K]> }
      : T;

/**
 * `true` when A and B are the same type at every depth (an extra optional field, `?` against
 * `| undefined`, or a nullable where the other is not all differ), otherwise `false`. A domain's
 * dto.ts owns its output types, so that no domain imports the contracts (which sit above every
 * domain); the contract re-exports the type and states that its schema describes exactly that type:
 *   const _post: TSame<z.infer<typeof ZPost>, TPost> = true;
 * which stops compiling the moment the two drift apart (and with them the OpenAPI document).
 */
export type TSame<A, B> = (<T>() => T extends TFlat<A> ? 1 : 2) extends (<T>() => T extends TFlat<B> ? 1 : 2) ? true : false;
