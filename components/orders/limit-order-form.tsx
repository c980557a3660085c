'use client';

import { useId, useMemo, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Notice } from '@/components/ui/error-state';
import { describedBy, Field } from '@/components/ui/field';
import { formatMoney } from '@/components/ui/format';
import { Input, PrefixedInput } from '@/components/ui/input';
import { PreviewList, PreviewPlaceholder, PreviewRow } from '@/components/ui/preview-list';
import { Select } from '@/components/ui/select';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { SideSubmitButton } from '@/components/ui/side-submit-button';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import type { TMarket, TOutcome } from '@/lib/client/queries/markets';
import {
  ORDER_ERROR_MESSAGES,
  orderErrorField,
  parseExpiry,
  parseLimitPrice,
  parseOrderAmount,
  PREVIEW_DEBOUNCE_MS,
  summarizeFills,
  toCentsText,
  usePlacePredictionOrder,
  usePredictionOrderPreview,
  type TPlacePredictionOrderInput,
  type TPredictionOrderResult,
  type TTimeInForce,
} from '@/lib/client/queries/orders';
import { useDebouncedValue } from '@/lib/client/queries/users';
import { formatLimitCents, formatOrderShares, TIME_IN_FORCE_LABELS } from './format';

const TIME_IN_FORCE: readonly TTimeInForce[] = ['GTC', 'GTD', 'IOC'];

const TIME_IN_FORCE_HINTS: Record<TTimeInForce, string> = {
  GTC: 'What does not fill now waits in the book until it fills or you cancel it.',
  GTD: 'What does not fill now waits in the book until the time you pick (game time).',
  IOC: 'Only what fills now is bought; the rest is cancelled and refunded at once.',
};

/** "2026-05-01T14:30" in the reader's time zone, as a datetime-local input takes it. */
const toLocalInputValue = (ms: number) => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

const DAY_MS = 86_400_000;

const outcomeOptions = (market: Pick<TMarket, 'yesPrice' | 'noPrice'>) =>
  (['YES', 'NO'] as const).map((o) => ({
    value: o,
    label: o,
    content: (
      <>
        <span className="font-semibold">{o}</span>
        <span className="text-sm font-normal tabular-nums opacity-80">{formatLimitCents(o === 'YES' ? market.yesPrice : market.noPrice)}</span>
      </>
    ),
    selectedClassName: o === 'YES' ? 'bg-up-soft text-up ring-1 ring-up/50' : 'bg-down-soft text-down ring-1 ring-down/50',
  }));

/** The sentence after a placed order: what filled at once and what rests (or was cancelled). */
const placedMessage = (r: TPredictionOrderResult) => {
  const s = summarizeFills(r);
  const parts: string[] = [];
  if (s.avgPrice !== null) parts.push(`bought ${formatOrderShares(s.sharesNow)} ${r.order.outcome} shares at ${formatLimitCents(s.avgPrice)} on average`);
  if (Number(s.resting) > 0) parts.push(`${formatMoney(s.resting)} rests in the book at ${formatLimitCents(r.order.limitPrice)}`);
  if (Number(s.cancelledRest) > 0) parts.push(`${formatMoney(s.cancelledRest)} did not fill and was refunded`);
  return `Order placed: ${parts.join('; ') || 'nothing filled'}.`;
};

const FillPreview = ({
  input,
  preview,
  isUpdating,
}: {
  input: TPlacePredictionOrderInput | null;
  preview: ReturnType<typeof usePredictionOrderPreview>;
  isUpdating: boolean;
}) => {
  if (!input) return <PreviewPlaceholder>Enter an amount and a limit price to see what fills now and what rests in the book.</PreviewPlaceholder>;
  if (!preview.data) {
    if (preview.isError) return null;
    return (
      <div role="status" aria-label="Checking the book" className="flex flex-col gap-2">
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  const s = summarizeFills(preview.data);
  const isIoc = preview.data.order.timeInForce === 'IOC';
  return (
    <div aria-busy={isUpdating || undefined} className={cn('transition-opacity', isUpdating && 'opacity-60')}>
      <PreviewList label="Order preview">
        <PreviewRow label="Fills now" value={s.avgPrice === null ? 'Nothing at this price' : `${formatOrderShares(s.sharesNow)} shares`} />
        {s.avgPrice !== null && (
          <>
            <PreviewRow label="Average price" value={formatLimitCents(s.avgPrice)} />
            <PreviewRow label="Cost now" value={formatMoney(s.spentNow)} />
          </>
        )}
        <div className="mt-1 flex flex-col gap-2 border-t border-line pt-2">
          {isIoc ? (
            <PreviewRow label="Cancelled, refunded" value={formatMoney(s.cancelledRest)} />
          ) : (
            <>
              <PreviewRow
                label="Rests in the book"
                value={Number(s.resting) > 0 ? `${formatMoney(s.resting)} at ${formatLimitCents(preview.data.order.limitPrice)}` : 'Nothing: it all fills now'}
              />
              {Number(s.resting) > 0 && <PreviewRow label="Shares if it all fills" value={`up to ${formatOrderShares(s.restingShares)} more`} />}
            </>
          )}
          <PreviewRow label="Balance after" value={formatMoney(preview.data.newBalance)} />
        </div>
      </PreviewList>
    </div>
  );
};

/**
 * A limit order on a question: buy an outcome for up to an amount at no more than a price a share.
 * What the market maker or resting orders sell at that price or better fills now; the rest rests
 * in the book (good till cancelled or till a date) or is cancelled (immediate or cancel). The
 * preview is the server's dryRun of the order as typed, asked for once typing pauses.
 */
export const LimitOrderForm = ({
  market,
  userId,
  balance,
  initialOutcome = 'YES',
}: {
  market: Pick<TMarket, 'id' | 'yesPrice' | 'noPrice'>;
  userId: string;
  balance: string;
  initialOutcome?: TOutcome;
}) => {
  const amountId = useId();
  const priceId = useId();
  const tifId = useId();
  const expiryId = useId();
  const [outcome, setOutcome] = useState<TOutcome>(initialOutcome);
  const [amountText, setAmountText] = useState('');
  const [priceText, setPriceText] = useState('');
  const [timeInForce, setTimeInForce] = useState<TTimeInForce>('GTC');
  const [expiryText, setExpiryText] = useState(() => toLocalInputValue(Date.now() + DAY_MS));
  // "Now" for the expiry's sense check and its minimum: read when the form opens and on each change of the expiry.
  const [nowMs, setNowMs] = useState(() => Date.now());
  const [success, setSuccess] = useState<string | null>(null);
  const place = usePlacePredictionOrder(market.id, userId);

  const amount = parseOrderAmount(amountText, balance);
  const price = parseLimitPrice(priceText);
  const expiry = timeInForce === 'GTD' ? parseExpiry(expiryText, nowMs) : null;
  const input: TPlacePredictionOrderInput | null =
    amount.state === 'ok' && price.state === 'ok' && (!expiry || expiry.state === 'ok')
      ? { outcome, amount: amount.value, limitPrice: price.value, timeInForce, ...(expiry?.state === 'ok' ? { expiresAt: expiry.value } : {}) }
      : null;

  // Debounced by its text, so an equal order typed again is the same preview (and no new request).
  const inputKey = input ? JSON.stringify(input) : '';
  const settledKey = useDebouncedValue(inputKey, PREVIEW_DEBOUNCE_MS);
  const settled = useMemo(() => (settledKey ? (JSON.parse(settledKey) as TPlacePredictionOrderInput) : null), [settledKey]);
  const preview = usePredictionOrderPreview(market.id, input ? settled : null);
  const isUpdating = settledKey !== inputKey || preview.isPlaceholderData || preview.isFetching;

  // The error to show: the failed submit's, else the preview's (when it is about what is typed now).
  const serverError = place.isError ? place.error : preview.isError && settledKey === inputKey ? preview.error : null;
  const serverField = serverError ? orderErrorField(serverError) : null;
  const serverMessage = serverError ? describeError(serverError, ORDER_ERROR_MESSAGES) : null;
  const errorOf = (field: 'amount' | 'limitPrice' | 'expiresAt', local: { state: string; reason?: string } | null) =>
    (local?.state === 'invalid' ? local.reason : undefined) ?? (serverField === field ? (serverMessage ?? undefined) : undefined);
  const amountError = errorOf('amount', amount);
  const priceError = errorOf('limitPrice', price);
  const expiryError = errorOf('expiresAt', expiry);

  const clearResult = () => {
    setSuccess(null);
    place.reset();
  };
  const change = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    clearResult();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!input) return;
    place.mutate(input, {
      onSuccess: (r) => {
        setSuccess(placedMessage(r));
        setAmountText('');
      },
    });
  };

  const currentPrice = outcome === 'YES' ? market.yesPrice : market.noPrice;
  const amountHint = `Balance ${formatMoney(balance)} · minimum $1`;
  const priceHint = `Cents, 1 to 99 (or 0.01 to 0.99). You buy only at this price or better.`;

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate aria-label="Limit order">
      <SegmentedControl label="Outcome" value={outcome} options={outcomeOptions(market)} onChange={change(setOutcome)} size="lg" />
      <Field id={amountId} label="Amount" hint={amountHint} error={amountError}>
        <PrefixedInput
          prefix="$"
          id={amountId}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0"
          value={amountText}
          onChange={(e) => change(setAmountText)(e.target.value)}
          aria-invalid={!!amountError || undefined}
          aria-describedby={describedBy(amountId, { error: amountError, hint: amountHint })}
          className="tabular-nums"
        />
      </Field>
      <Field id={priceId} label="Limit price" hint={priceHint} error={priceError}>
        <div className="flex gap-2">
          <div className="relative flex-1">
            <Input
              id={priceId}
              name="limitPrice"
              inputMode="decimal"
              autoComplete="off"
              placeholder={toCentsText(currentPrice)}
              value={priceText}
              onChange={(e) => change(setPriceText)(e.target.value)}
              aria-invalid={!!priceError || undefined}
              aria-describedby={describedBy(priceId, { error: priceError, hint: priceHint })}
              className="pr-7 tabular-nums"
            />
            <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-sm text-ink-faint">
              ¢
            </span>
          </div>
          <Button variant="secondary" onClick={() => change(setPriceText)(toCentsText(currentPrice))} title={`Use the current ${outcome} price`} className="tabular-nums">
            Now {formatLimitCents(currentPrice)}
          </Button>
        </div>
      </Field>
      <Field id={tifId} label="Time in force" hint={TIME_IN_FORCE_HINTS[timeInForce]}>
        <Select id={tifId} name="timeInForce" value={timeInForce} onChange={(e) => {
            setNowMs(Date.now());
            change(setTimeInForce)(e.target.value as TTimeInForce);
          }} aria-describedby={`${tifId}-hint`}>
          {TIME_IN_FORCE.map((t) => (
            <option key={t} value={t}>
              {TIME_IN_FORCE_LABELS[t]}
            </option>
          ))}
        </Select>
      </Field>
      {timeInForce === 'GTD' && (
        <Field id={expiryId} label="Expires at" error={expiryError}>
          <Input
            id={expiryId}
            name="expiresAt"
            type="datetime-local"
            value={expiryText}
            min={toLocalInputValue(nowMs)}
            onChange={(e) => {
              setNowMs(Date.now());
              change(setExpiryText)(e.target.value);
            }}
            aria-invalid={!!expiryError || undefined}
            aria-describedby={describedBy(expiryId, { error: expiryError })}
            className="tabular-nums"
          />
        </Field>
      )}
      <FillPreview input={input} preview={preview} isUpdating={isUpdating} />
      <SideSubmitButton tone={outcome === 'YES' ? 'up' : 'down'} disabled={!input} isLoading={place.isPending}>
        Place limit order
      </SideSubmitButton>
      {serverMessage && !serverField && <Notice tone="error">{serverMessage}</Notice>}
      {success && <Notice tone="success">{success}</Notice>}
    </form>
  );
};
