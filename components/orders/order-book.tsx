'use client';

import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { formatMoney } from '@/components/ui/format';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { ORDER_ERROR_MESSAGES, toDepthRows, useOrderBook, type TBookOutcome, type TDepthRow } from '@/lib/client/queries/orders';
import { formatLimitCents } from './format';

/** Levels a side shows before "Show all". */
const LEVELS_SHOWN = 8;

const SIDE_STYLE: Record<TBookOutcome, { title: string; text: string; bar: string }> = {
  YES: { title: 'text-up', text: 'text-up', bar: 'var(--color-up-soft)' },
  NO: { title: 'text-down', text: 'text-down', bar: 'var(--color-down-soft)' },
};

/** One side's bids: price, amount and running total, each row shaded by its depth (the bar is decoration; the numbers are in the cells). */
const BookSide = ({ side, rows, isExpanded }: { side: TBookOutcome; rows: TDepthRow[]; isExpanded: boolean }) => {
  const style = SIDE_STYLE[side];
  const shown = isExpanded ? rows : rows.slice(0, LEVELS_SHOWN);
  return (
    <div className="min-w-0 flex-1">
      <table className="w-full table-fixed text-sm" data-testid={`order-book-${side.toLowerCase()}`}>
        <caption className={cn('pb-2 text-left text-xs font-semibold tracking-wide uppercase', style.title)}>{side} bids</caption>
        <thead className="text-xs text-ink-faint">
          <tr>
            <th scope="col" className="pb-1 text-left font-medium">
              Price
            </th>
            <th scope="col" className="pb-1 text-right font-medium">
              Amount
            </th>
            <th scope="col" className="pb-1 text-right font-medium">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.length === 0 ? (
            <tr>
              <td colSpan={3} className="py-3 text-center text-xs text-ink-faint">
                No {side} bids
              </td>
            </tr>
          ) : (
            shown.map((r) => (
              <tr
                key={r.price}
                className="border-t border-line/60"
                style={{ backgroundImage: `linear-gradient(to left, ${style.bar} ${(r.share * 100).toFixed(1)}%, transparent ${(r.share * 100).toFixed(1)}%)` }}
              >
                <th scope="row" className={cn('py-1.5 pl-1 text-left font-medium tabular-nums', style.text)}>
                  {formatLimitCents(r.price)}
                </th>
                <td className="py-1.5 text-right text-ink tabular-nums">{formatMoney(r.amount)}</td>
                <td className="py-1.5 pr-1 text-right text-ink-muted tabular-nums">{formatMoney(r.cumulative)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
};

/**
 * A question's order book: the resting limit orders to buy YES and to buy NO, by price level, best
 * price first, with each level's unfilled amount and a depth bar. A NO bid at 60¢ is an offer to
 * sell YES at 40¢. Read again on the market's price events and every few seconds.
 */
export const OrderBook = ({ marketId }: { marketId: string }) => {
  const titleId = useId();
  const book = useOrderBook(marketId);
  const [isExpanded, setIsExpanded] = useState(false);
  const rows = book.data ? toDepthRows(book.data) : null;
  const levelCount = rows ? Math.max(rows.YES.length, rows.NO.length) : 0;
  return (
    <Card aria-labelledby={titleId} className="flex flex-col gap-4">
      <div>
        <CardTitle id={titleId}>Order book</CardTitle>
        <CardDescription>Resting limit orders by price. A NO bid at 60¢ is an offer to sell YES at 40¢.</CardDescription>
      </div>
      {book.isPending ? (
        <div role="status" aria-label="Loading the order book" className="grid gap-4 sm:grid-cols-2">
          <Skeleton className="h-32 w-full" />
          <Skeleton className="h-32 w-full" />
        </div>
      ) : book.isError ? (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-3 text-sm text-ink-muted">
          {describeError(book.error, ORDER_ERROR_MESSAGES)}
          <Button size="sm" variant="secondary" onClick={() => book.refetch()} isLoading={book.isFetching}>
            Try again
          </Button>
        </div>
      ) : rows && levelCount === 0 ? (
        <p className="text-sm text-ink-muted">No resting orders yet. A limit order that does not fill at once waits here.</p>
      ) : rows ? (
        <>
          <div className="flex flex-col gap-5 sm:flex-row sm:gap-6">
            <BookSide side="YES" rows={rows.YES} isExpanded={isExpanded} />
            <BookSide side="NO" rows={rows.NO} isExpanded={isExpanded} />
          </div>
          {levelCount > LEVELS_SHOWN && (
            <Button variant="ghost" size="sm" className="self-start" aria-expanded={isExpanded} onClick={() => setIsExpanded((v) => !v)}>
              {isExpanded ? 'Show fewer levels' : `Show all ${levelCount} levels`}
            </Button>
          )}
        </>
      ) : null}
    </Card>
  );
};
