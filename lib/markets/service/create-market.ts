/** Creating a question (admin, and later the game): a pool at 0.5 funded with `liquidity`, never empty. */
import 'server-only';
import { withTransaction, type Tx } from '@/db/client';
import { markets } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { dec, toDecimalString } from '@/lib/money/decimal';
import { createPool, createPoolAt } from '../cpmm';
import { toMarketDto } from '../dto';
import { emitEvent } from '@/lib/events/outbox';
import { recordPricePoint } from './price-points';
import { emitMarketUpdate, poolColumns } from './shared';

export const DEFAULT_LIQUIDITY = 1000;

/**
 * Creates a question and announces it (market_update on `markets`, question_created on
 * `upcoming-events`); with `tx`, inside that transaction (the game tick's), otherwise in one of
 * its own. The caller (an administrator) is recorded as its creator; null when the game creates it.
 */
/**
 * `probability` (the game's questions: the odds a question is born with) opens the pool at that
 * YES price, within cpmm's bound, at the same depth; without it a market opens at 50 %.
 */
export async function createMarket(input: { caller: TCaller | null; text: string; resolutionDate: Date; liquidity?: number; probability?: number; tx?: Tx }) {
  const at = now();
  if (input.resolutionDate.getTime() <= at.getTime()) {
    throw new AppError('VALIDATION_ERROR', 'The resolution date must be in the future', {
      field: 'resolutionDate',
      provided: input.resolutionDate.toISOString(),
    });
  }
  const liquidity = dec(input.liquidity ?? DEFAULT_LIQUIDITY);
  const run = async (tx: Tx) => {
    const [m] = await tx
      .insert(markets)
      .values({
        text: input.text.trim(),
        ...poolColumns(input.probability === undefined ? createPool(liquidity) : createPoolAt(liquidity, input.probability)),
        liquidity: toDecimalString(liquidity),
        resolutionDate: input.resolutionDate,
        createdById: input.caller?.userId ?? null,
        createdAt: at,
      })
      .returning();
    await recordPricePoint(tx, m!, 'create');
    await emitMarketUpdate(tx, m!);
    await emitEvent(tx, 'upcoming-events', {
      type: 'question_created',
      data: {
        id: m!.id,
        questionNumber: m!.questionNumber ?? null,
        text: m!.text,
        resolutionDate: m!.resolutionDate.toISOString(),
        timestamp: at.toISOString(),
      },
    });
    return m!;
  };
  const market = input.tx ? await run(input.tx) : await withTransaction(run);
  return toMarketDto(market);
}
