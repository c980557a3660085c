'use client';

import Link from 'next/link';
import { useId, useState, type ReactNode } from 'react';
import { Badge, type TBadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { Notice } from '@/components/ui/error-state';
import { Select } from '@/components/ui/select';
import { formatDateTime, formatMoney, formatRelativeTime } from '@/components/ui/format';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { useMarket } from '@/lib/client/queries/markets';
import {
  isOpenOrder,
  unfilledAmount,
  ORDER_ERROR_MESSAGES,
  useCancelOrder,
  useCancelOrders,
  useMyOrders,
  type TMyOrdersFilter,
  type TOrder,
  type TOrderList,
  type TOrderStatus,
  type TPerpOrder,
  type TPredictionOrder,
} from '@/lib/client/queries/orders';
import { useSession } from '@/lib/client/queries/users';
import { describeOrder, formatLimitCents, formatOrderLeverage, formatOrderShares, formatPerpPrice, STATUS_LABELS, TIME_IN_FORCE_LABELS } from './format';

const STATUS_TONE: Record<TOrderStatus, TBadgeTone> = {
  open: 'accent',
  partially_filled: 'accent',
  filled: 'up',
  cancelled: 'neutral',
  expired: 'neutral',
  triggered: 'warn',
};

const Detail = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className="flex flex-col">
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className="text-sm font-medium text-ink tabular-nums">{children}</dd>
  </div>
);

/** The question an order is on, linked (read from the market's own query, which the market page shares). */
const MarketName = ({ marketId }: { marketId: string }) => {
  const market = useMarket(marketId);
  return (
    <Link href={`/markets/${marketId}`} className="block truncate text-sm font-medium text-ink hover:underline">
      {market.data?.question ?? 'Market'}
    </Link>
  );
};

const PredictionDetails = ({ order: o }: { order: TPredictionOrder }) => (
  <>
    <Detail label="Amount">{formatMoney(o.amount)}</Detail>
    <Detail label="Filled">
      {formatMoney(o.filledAmount)}
      {o.shares > 0 && <span className="text-ink-muted"> · {formatOrderShares(o.shares)} sh</span>}
    </Detail>
    <Detail label={o.timeInForce === 'GTD' ? 'Expires' : 'Time in force'}>
      {o.timeInForce === 'GTD' && o.expiresAt ? formatDateTime(o.expiresAt) : TIME_IN_FORCE_LABELS[o.timeInForce]}
    </Detail>
  </>
);

const PerpDetails = ({ order: o }: { order: TPerpOrder }) => (
  <>
    <Detail label={o.type === 'limit' ? 'Limit price' : 'Trigger price'}>{formatPerpPrice(o.triggerPrice)}</Detail>
    <Detail label="Size">{o.size === null ? 'Whole position' : formatMoney(o.size)}</Detail>
    {o.type === 'limit' ? (
      <Detail label="Side">
        {o.side === 'long' ? 'Long' : 'Short'}
        {o.leverage !== null && ` ${formatOrderLeverage(o.leverage)}`}
      </Detail>
    ) : (
      <Detail label="Closes">{o.side === 'long' ? 'Long' : 'Short'} position</Detail>
    )}
  </>
);

/** One order: what it is, its figures, its status, and a Cancel button while it can still fill. */
const OrderItem = ({
  order: o,
  context,
  onCancel,
  isCancelling,
}: {
  order: TOrder;
  context: 'market' | 'ticker' | 'all';
  onCancel: () => void;
  isCancelling: boolean;
}) => {
  const name = describeOrder(o);
  return (
    <article aria-label={name} data-testid="order-item" className="flex flex-col gap-3 rounded-xl border border-line bg-canvas/50 p-3 sm:p-4">
      {context === 'all' &&
        (o.kind === 'prediction' ? (
          <MarketName marketId={o.marketId} />
        ) : (
          <Link href={`/perps/${o.ticker}`} className="block truncate text-sm font-medium text-ink hover:underline">
            {o.ticker} perp
          </Link>
        ))}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <span className={o.kind === 'prediction' ? (o.outcome === 'YES' ? 'font-semibold text-up' : 'font-semibold text-down') : 'font-semibold text-ink'}>
            {o.kind === 'prediction' ? `Buy ${o.outcome} at ${formatLimitCents(o.limitPrice)}` : name}
          </span>
          <Badge tone={STATUS_TONE[o.status]}>{STATUS_LABELS[o.status]}</Badge>
        </div>
        <time dateTime={o.createdAt} title={formatDateTime(o.createdAt)} className="text-xs text-ink-faint">
          {formatRelativeTime(o.createdAt)}
        </time>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-3">{o.kind === 'prediction' ? <PredictionDetails order={o} /> : <PerpDetails order={o} />}</dl>
        {isOpenOrder(o) && (
          <Button variant="secondary" size="sm" onClick={onCancel} isLoading={isCancelling} aria-label={`Cancel order: ${name}`} className="w-full sm:w-auto">
            Cancel
          </Button>
        )}
      </div>
    </article>
  );
};

/** What a cancel gave back, in a sentence. */
const cancelledMessage = (o: TOrder) =>
  o.kind === 'prediction'
    ? `Cancelled ${describeOrder(o)}: ${formatMoney(unfilledAmount(o))} unfilled was refunded.`
    : `Cancelled ${describeOrder(o)}.`;

/**
 * A list of orders with a Cancel button on each open one, and the cancel's result. `context`
 * says what the list is about: one market, one ticker, or everything (then each order names its
 * market or ticker).
 */
export const OrdersList = ({
  data,
  userId,
  context,
  label,
  empty,
}: {
  data: TOrderList;
  userId: string;
  context: 'market' | 'ticker' | 'all';
  label: string;
  empty: ReactNode;
}) => {
  const cancel = useCancelOrder(userId);
  const [result, setResult] = useState<string | null>(null);
  const onCancel = (o: TOrder) => {
    setResult(null);
    cancel.mutate(o, { onSuccess: (r) => setResult(cancelledMessage(r.order)) });
  };
  return (
    <div className="flex flex-col gap-3">
      {data.orders.length === 0 ? (
        <p className="text-sm text-ink-muted">{empty}</p>
      ) : (
        <ul aria-label={label} className="flex flex-col gap-3">
          {data.orders.map((o) => (
            <li key={o.id}>
              <OrderItem order={o} context={context} onCancel={() => onCancel(o)} isCancelling={cancel.isPending && cancel.variables?.id === o.id} />
            </li>
          ))}
        </ul>
      )}
      {data.pagination.total > data.orders.length && (
        <p className="text-xs text-ink-faint">
          Showing the newest {data.orders.length} of {data.pagination.total} orders.
        </p>
      )}
      {cancel.isError && <Notice tone="error">{describeError(cancel.error, ORDER_ERROR_MESSAGES)}</Notice>}
      {result && <Notice tone="success">{result}</Notice>}
    </div>
  );
};

const LoadingOrders = ({ label }: { label: string }) => (
  <div role="status" aria-label={label} className="flex flex-col gap-3">
    <Skeleton className="h-24 w-full" />
  </div>
);

const LoadError = ({ error, onRetry, isRetrying }: { error: unknown; onRetry: () => void; isRetrying: boolean }) => (
  <div role="alert" className="flex flex-wrap items-center justify-between gap-3 text-sm text-ink-muted">
    {describeError(error, ORDER_ERROR_MESSAGES)}
    <Button size="sm" variant="secondary" onClick={onRetry} isLoading={isRetrying}>
      Try again
    </Button>
  </div>
);

const cancelledCount = (n: number) => (n === 1 ? 'Cancelled 1 order.' : `Cancelled ${n} orders.`);

/** The signed-in player's open orders in a scope, in a card with "Cancel all"; nothing for visitors. */
const ScopedOpenOrders = ({
  filter,
  context,
  cancelAllLabel,
  empty,
  isLive = false,
}: {
  filter: TMyOrdersFilter;
  context: 'market' | 'ticker';
  cancelAllLabel: string;
  empty: string;
  isLive?: boolean;
}) => {
  const titleId = useId();
  const session = useSession();
  const userId = session.user?.id;
  const orders = useMyOrders(userId, { ...filter, status: 'open' }, { isLive });
  // Held here, not by the button: the button goes once nothing is left to cancel, its result stays.
  const cancelAll = useCancelOrders(userId);
  if (!userId) return null;
  return (
    <Card aria-labelledby={titleId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <CardTitle id={titleId}>Your open orders</CardTitle>
        {orders.data && orders.data.orders.length > 0 && (
          <Button variant="danger" size="sm" onClick={() => cancelAll.mutate(filter)} isLoading={cancelAll.isPending}>
            {cancelAllLabel}
          </Button>
        )}
      </div>
      {cancelAll.isError && <Notice tone="error">{describeError(cancelAll.error, ORDER_ERROR_MESSAGES)}</Notice>}
      {cancelAll.isSuccess && <Notice tone="success">{cancelledCount(cancelAll.data.cancelled.length)}</Notice>}
      {orders.isPending ? (
        <LoadingOrders label="Loading your open orders" />
      ) : orders.isError ? (
        <LoadError error={orders.error} onRetry={() => orders.refetch()} isRetrying={orders.isFetching} />
      ) : (
        <OrdersList data={orders.data} userId={userId} context={context} label="Your open orders" empty={empty} />
      )}
    </Card>
  );
};

/** The market page's "Your open orders": resting limit orders on this question, each with Cancel, and Cancel all. */
export const MarketOpenOrders = ({ marketId }: { marketId: string }) => (
  <ScopedOpenOrders
    filter={{ marketId }}
    context="market"
    cancelAllLabel="Cancel all on this market"
    empty="You have no open orders on this market. Use the Limit tab to buy at a price of your choosing."
  />
);

/** A ticker page's "Your open orders": limit orders, stop-losses and take-profits on the ticker. */
export const TickerOpenOrders = ({ ticker }: { ticker: string }) => (
  <ScopedOpenOrders
    filter={{ ticker }}
    context="ticker"
    cancelAllLabel={`Cancel all on ${ticker.toUpperCase()}`}
    empty="You have no open orders on this ticker."
    isLive
  />
);

const STATUS_FILTERS: readonly { value: NonNullable<TMyOrdersFilter['status']>; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'filled', label: 'Filled' },
  { value: 'triggered', label: 'Triggered' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'expired', label: 'Expired' },
  { value: 'all', label: 'All' },
];

/** The portfolio's orders of both kinds, open ones by default, any status on request, each open one with Cancel. */
export const PortfolioOrders = ({ userId }: { userId: string }) => {
  const filterId = useId();
  const [status, setStatus] = useState<NonNullable<TMyOrdersFilter['status']>>('open');
  const orders = useMyOrders(userId, { status });
  const label = status === 'open' ? 'Open orders' : `${STATUS_FILTERS.find((s) => s.value === status)!.label} orders`;
  return (
    <Card aria-labelledby={`${filterId}-title`} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <CardTitle id={`${filterId}-title`}>{label}</CardTitle>
        <div className="flex items-center gap-2">
          <label htmlFor={filterId} className="text-sm text-ink-muted">
            Status
          </label>
          <div className="w-36">
            <Select id={filterId} value={status} onChange={(e) => setStatus(e.target.value as NonNullable<TMyOrdersFilter['status']>)}>
              {STATUS_FILTERS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </Select>
          </div>
        </div>
      </div>
      {orders.isPending ? (
        <LoadingOrders label="Loading your orders" />
      ) : orders.isError ? (
        <LoadError error={orders.error} onRetry={() => orders.refetch()} isRetrying={orders.isFetching} />
      ) : (
        <OrdersList
          data={orders.data}
          userId={userId}
          context="all"
          label={label}
          empty={
            status === 'open'
              ? 'You have no open orders. Limit orders on markets and stop-losses, take-profits and limit orders on perps are listed here while they wait.'
              : 'No orders with this status.'
          }
        />
      )}
    </Card>
  );
};
