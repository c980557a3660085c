/**
 * A ticker's mark price as OHLC candles, aggregated in SQL with the semantics of the pure builder
 * (lib/perps/candles.ts): epoch-aligned UTC buckets (`date_bin` from 1970-01-01), points in
 * (time, id) order, open the first point and close the last, empty buckets left out.
 * `read-candles.int.test.ts` checks the two agree point for point. Reads only.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { perpPricePoints } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { toNumber } from '@/lib/money/decimal';
import { bucketStart, CANDLE_INTERVALS, intervalForRange, type TCandleInterval } from '../candles';
import { getTicker } from './read';

const RANGE_MS = { '1h': 3_600_000, '24h': 86_400_000, '7d': 604_800_000, '30d': 2_592_000_000, all: null } as const;

/** At most this many candles (the newest); 30 days of 5-minute candles fit. */
const MAX_CANDLES = 10_000;

type TCandlesInput = { ticker: string; interval?: TCandleInterval; range: keyof typeof RANGE_MS; from?: string };

/** GET /api/markets/perps/tickers/{ticker}/candles: candles from `from` (or over `range`), aligned down to the interval. */
export async function getTickerCandles({ ticker, interval: asked, range, from }: TCandlesInput) {
  const t = await getTicker(ticker);
  const interval = asked ?? intervalForRange(range);
  const ms = CANDLE_INTERVALS[interval];
  const span = RANGE_MS[range];
  const startMs = from !== undefined ? new Date(from).getTime() : span === null ? null : now().getTime() - span;
  // Aligned down, so the first candle is a whole bucket rather than its tail.
  const since = startMs === null ? null : new Date(bucketStart(startMs, ms));
  const db = await getDb();
  const rows = rowsOf<{ bucket: string | Date; open: string; high: string; low: string; close: string; count: number | string }>(
    await db.execute(sql`
      select * from (
        select date_bin(${`${ms} milliseconds`}::interval, pp.created_at, timestamptz '1970-01-01 00:00:00+00') as bucket,
          (array_agg(pp.mark_price order by pp.created_at, pp.id))[1] as open,
          max(pp.mark_price) as high,
          min(pp.mark_price) as low,
          (array_agg(pp.mark_price order by pp.created_at desc, pp.id desc))[1] as close,
          count(*) as count
        from ${perpPricePoints} pp
        where pp.ticker = ${t.ticker} ${since ? sql`and pp.created_at >= ${since.toISOString()}::timestamptz` : sql``}
        group by 1
        order by 1 desc
        limit ${MAX_CANDLES}
      ) c order by bucket asc`),
  );
  return {
    ticker: t.ticker,
    interval,
    intervalSeconds: ms / 1000,
    from: since ? since.toISOString() : null,
    markPrice: t.markPrice,
    candles: rows.map((r) => {
      const start = new Date(r.bucket);
      return {
        time: Math.floor(start.getTime() / 1000),
        timestamp: start.toISOString(),
        open: toNumber(r.open),
        high: toNumber(r.high),
        low: toNumber(r.low),
        close: toNumber(r.close),
        count: Number(r.count),
      };
    }),
  };
}
