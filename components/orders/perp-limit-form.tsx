'use client';

import { useId, useMemo, useState, type FormEvent } from 'react';
import { Notice } from '@/components/ui/error-state';
import { describedBy, Field } from '@/components/ui/field';
import { formatMoney } from '@/components/ui/format';
import { Input, PrefixedInput } from '@/components/ui/input';
import { PreviewList, PreviewPlaceholder, PreviewRow } from '@/components/ui/preview-list';
import { QuickPicks } from '@/components/ui/quick-picks';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { SideSubmitButton } from '@/components/ui/side-submit-button';
import { describeError } from '@/lib/client/queries/errors';
import {
  isLimitReached,
  ORDER_ERROR_MESSAGES,
  orderErrorField,
  parsePrice,
  previewPerpLimit,
  PREVIEW_DEBOUNCE_MS,
  usePerpOrderPreview,
  usePlacePerpOrder,
  type TPlacePerpOrderInput,
} from '@/lib/client/queries/orders';
import { MAX_LEVERAGE, MIN_LEVERAGE, type TPerpSide, type TPerpTicker } from '@/lib/client/queries/perps';
import { useDebouncedValue } from '@/lib/client/queries/users';
import { formatOrderLeverage, formatPerpPrice } from './format';

const SIDES = [
  { value: 'long', label: 'Long', selectedClassName: 'bg-up-soft text-up ring-1 ring-up/50' },
  { value: 'short', label: 'Short', selectedClassName: 'bg-down-soft text-down ring-1 ring-down/50' },
] as const;

const QUICK_LEVERAGE = [1, 2, 5, 10, 25];
const DEFAULT_LEVERAGE = 2;

const readLeverage = (text: string) => {
  const t = text.trim();
  if (!/^\d+(\.\d{1,4})?$/.test(t)) return null;
  const v = Number(t);
  return v >= MIN_LEVERAGE && v <= MAX_LEVERAGE ? v : null;
};

/**
 * A perp limit order: open a long or short of a size at a leverage when the mark reaches a price
 * (a long at or below it, a short at or above it), at that price. Its margin and opening fee are
 * reserved from the balance while it waits. The preview is the server's limit math (what it
 * reserves, where it would be liquidated); the server's dryRun of the order, asked once typing
 * pauses, says whether it would be accepted.
 */
export const PerpLimitOrderForm = ({
  ticker,
  userId,
  balance,
  initialSide = 'long',
}: {
  ticker: Pick<TPerpTicker, 'ticker' | 'markPrice'>;
  userId: string;
  balance: string;
  initialSide?: TPerpSide;
}) => {
  const priceId = useId();
  const sizeId = useId();
  const leverageId = useId();
  const [side, setSide] = useState<TPerpSide>(initialSide);
  const [priceText, setPriceText] = useState('');
  const [sizeText, setSizeText] = useState('');
  const [leverageText, setLeverageText] = useState(String(DEFAULT_LEVERAGE));
  const [success, setSuccess] = useState<string | null>(null);
  const place = usePlacePerpOrder(ticker.ticker, userId);

  const price = parsePrice(priceText);
  const leverage = readLeverage(leverageText);
  const local = price.state === 'ok' && leverage !== null ? previewPerpLimit({ side, sizeText, leverage, price: price.value, balance }) : null;
  const input: TPlacePerpOrderInput | null =
    price.state === 'ok' && leverage !== null && local?.state === 'ready' ? { type: 'limit', side, size: local.size, leverage, triggerPrice: price.value } : null;

  const inputKey = input ? JSON.stringify(input) : '';
  const settledKey = useDebouncedValue(inputKey, PREVIEW_DEBOUNCE_MS);
  const settled = useMemo(() => (settledKey ? (JSON.parse(settledKey) as TPlacePerpOrderInput) : null), [settledKey]);
  const server = usePerpOrderPreview(ticker.ticker, input ? settled : null);

  const serverError = place.isError ? place.error : server.isError && settledKey === inputKey ? server.error : null;
  const serverField = serverError ? orderErrorField(serverError) : null;
  const serverMessage = serverError ? describeError(serverError, ORDER_ERROR_MESSAGES) : null;
  const priceError = (price.state === 'invalid' ? price.reason : undefined) ?? (serverField === 'triggerPrice' ? (serverMessage ?? undefined) : undefined);
  const sizeError =
    (local?.state === 'invalid' ? local.reason : undefined) ?? (serverField === 'size' || serverField === 'amount' ? (serverMessage ?? undefined) : undefined);
  const leverageError =
    leverageText.trim() !== '' && leverage === null ? `Enter a leverage from ${MIN_LEVERAGE} to ${MAX_LEVERAGE}.` : serverField === 'leverage' ? (serverMessage ?? undefined) : undefined;
  const formMessage = serverMessage && !priceError && !sizeError && !leverageError ? serverMessage : null;

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
    if (!input || input.type !== 'limit') return;
    place.mutate(input, {
      onSuccess: (r) => {
        setSuccess(
          `Limit ${input.side} placed: ${formatMoney(input.size)} at ${formatOrderLeverage(input.leverage)} opens when the mark reaches ${formatPerpPrice(r.order.triggerPrice)}.`,
        );
        setSizeText('');
      },
    });
  };

  const reached = price.state === 'ok' && isLimitReached(side, price.value, ticker.markPrice);
  const priceHint = `Mark ${formatPerpPrice(ticker.markPrice)}. A long opens at or below this price, a short at or above it.`;
  const sizeHint = `Position value in dollars. Balance ${formatMoney(balance)}`;
  const leverageHint = `${MIN_LEVERAGE} to ${MAX_LEVERAGE}`;

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate aria-label="Limit order">
      <SegmentedControl label="Side" value={side} options={SIDES} onChange={change(setSide)} size="lg" />
      <Field id={priceId} label="Limit price" hint={priceHint} error={priceError}>
        <PrefixedInput
          prefix="$"
          id={priceId}
          name="triggerPrice"
          inputMode="decimal"
          autoComplete="off"
          placeholder={String(ticker.markPrice)}
          value={priceText}
          onChange={(e) => change(setPriceText)(e.target.value)}
          aria-invalid={!!priceError || undefined}
          aria-describedby={describedBy(priceId, { error: priceError, hint: priceHint })}
          className="tabular-nums"
        />
      </Field>
      <Field id={sizeId} label="Size" hint={sizeHint} error={sizeError}>
        <PrefixedInput
          prefix="$"
          id={sizeId}
          name="size"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0"
          value={sizeText}
          onChange={(e) => change(setSizeText)(e.target.value)}
          aria-invalid={!!sizeError || undefined}
          aria-describedby={describedBy(sizeId, { error: sizeError, hint: sizeHint })}
          className="tabular-nums"
        />
      </Field>
      <Field id={leverageId} label="Leverage" hint={leverageHint} error={leverageError}>
        <Input
          id={leverageId}
          name="leverage"
          inputMode="decimal"
          autoComplete="off"
          value={leverageText}
          onChange={(e) => change(setLeverageText)(e.target.value)}
          aria-invalid={!!leverageError || undefined}
          aria-describedby={describedBy(leverageId, { error: leverageError, hint: leverageHint })}
          className="tabular-nums"
        />
      </Field>
      <QuickPicks
        label="Quick leverage"
        values={QUICK_LEVERAGE}
        selected={leverage ?? undefined}
        onPick={(v) => change(setLeverageText)(String(v))}
        className="-mt-2 flex gap-1.5"
        buttonClassName="px-0"
      >
        {formatOrderLeverage}
      </QuickPicks>
      {local?.state === 'ready' ? (
        <PreviewList label="Limit order preview">
          <PreviewRow label="Margin" value={formatMoney(local.margin)} />
          <PreviewRow label="Fee (0.1%)" value={formatMoney(local.fee)} />
          <PreviewRow label="Reserved now" value={formatMoney(local.reserve)} className="font-semibold" />
          <div className="mt-1 flex flex-col gap-2 border-t border-line pt-2">
            <PreviewRow label="Entry price" value={formatPerpPrice(local.entryPrice)} />
            <PreviewRow label="Liquidation price" value={Number(local.liquidationPrice) > 0 ? formatPerpPrice(local.liquidationPrice) : 'None'} />
          </div>
        </PreviewList>
      ) : (
        <PreviewPlaceholder>Enter a price and a size to see the margin reserved and where the position would be liquidated.</PreviewPlaceholder>
      )}
      {reached && (
        <Notice tone="info">
          The mark ({formatPerpPrice(ticker.markPrice)}) is already {side === 'long' ? 'at or below' : 'at or above'} this price: the order opens at the next price check.
        </Notice>
      )}
      <SideSubmitButton tone={side === 'long' ? 'up' : 'down'} disabled={!input} isLoading={place.isPending}>
        Place limit {side}
      </SideSubmitButton>
      {formMessage && <Notice tone="error">{formMessage}</Notice>}
      {success && <Notice tone="success">{success}</Notice>}
    </form>
  );
};
