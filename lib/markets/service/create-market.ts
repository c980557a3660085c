/** Creating a question (admin, and later the game): a pool at 0.5 funded with `liquidity`, never empty. */
import { withTransaction } from '@/db/client';
import { markets } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/http/errors';
import { dec, toDecimalString } from '@/lib/money/decimal';
import { createPool } from '../cpmm';
import { toMarketDto } from '../dto';
import { poolColumns, publishMarketUpdate, recordPricePoint } from './shared';

export const DEFAULT_LIQUIDITY = 1000;

export const createMarket = async (input: { text: string; resolutionDate: Date; liquidity?: number; createdById?: string }) => {
  const at = now();
  if (input.resolutionDate.getTime() <= at.getTime()) {
    throw new AppError('VALIDATION_ERROR', 'The resolution date must be in the future', {
      field: 'resolutionDate',
      provided: input.resolutionDate.toISOString(),
    });
  }
  const liquidity = dec(input.liquidity ?? DEFAULT_LIQUIDITY);
  const market = await withTransaction(async (tx) => {
    const [m] = await tx
      .insert(markets)
      .values({
        text: input.text.trim(),
        ...poolColumns(createPool(liquidity)),
        liquidity: toDecimalString(liquidity),
        resolutionDate: input.resolutionDate,
        createdById: input.createdById ?? null,
        createdAt: at,
      })
      .returning();
    await recordPricePoint(tx, m!, 'create');
    return m!;
  });
  publishMarketUpdate(market);
  return toMarketDto(market);
};
