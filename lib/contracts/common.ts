/** Schemas shared by several domains: the error envelope, pagination, decimals, ids. */
import { z } from 'zod';

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

/** A query integer with a default and bounds ("limit=abc" is an INVALID_PARAMETER). */
export const zQueryInt = (opts: { default: number; min?: number; max?: number }) =>
  z.coerce
    .number()
    .int()
    .min(opts.min ?? 0)
    .max(opts.max ?? Number.MAX_SAFE_INTEGER)
    .default(opts.default);

export const ZPagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  pages: z.number().int(),
});
