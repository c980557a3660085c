'use client';

import { useId, useState, type FormEvent } from 'react';
import { TradeSessionGate } from '@/components/auth/trade-session-gate';
import { PerpLimitOrderForm } from '@/components/orders/perp-limit-form';
import { BracketFields, useAttachBrackets } from '@/components/orders/perp-stops';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { Notice } from '@/components/ui/error-state';
import { describedBy, Field, Label } from '@/components/ui/field';
import { formatMoney } from '@/components/ui/format';
import { AlertIcon } from '@/components/ui/icons';
import { PrefixedInput } from '@/components/ui/input';
import { PreviewList, PreviewPlaceholder, PreviewRow } from '@/components/ui/preview-list';
import { QuickPicks } from '@/components/ui/quick-picks';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { SideSubmitButton } from '@/components/ui/side-submit-button';
import { Tabs, tabPanelProps } from '@/components/ui/tabs';
import { describeError } from '@/lib/client/queries/errors';
import { NO_BRACKETS, previewBrackets } from '@/lib/client/queries/orders';
import {
  HIGH_LEVERAGE,
  isHighLeverage,
  MAX_LEVERAGE,
  MIN_LEVERAGE,
  PERP_ERROR_MESSAGES,
  previewOrder,
  useMyPerpPositions,
  useOpenPerp,
  type TOrderPreview,
  type TPerpSide,
  type TPerpTicker,
} from '@/lib/client/queries/perps';
import { formatLeverage, formatPrice } from './format';

const SIDES = [
  { value: 'long', label: 'Long', selectedClassName: 'bg-up-soft text-up ring-1 ring-up/50' },
  { value: 'short', label: 'Short', selectedClassName: 'bg-down-soft text-down ring-1 ring-down/50' },
] as const;

const ORDER_TYPES = [
  { value: 'market', label: 'Market' },
  { value: 'limit', label: 'Limit' },
] as const;

const QUICK_SIZES = ['50', '100', '500'];
const QUICK_LEVERAGE = [1, 2, 5, 10, 25];
const DEFAULT_LEVERAGE = 2;
/** The order form's shape while the session loads: side, size, leverage, preview. */
const LOADING_SKELETONS = ['h-12 w-full', 'h-10 w-full', 'h-16 w-full', 'h-24 w-full'];

export const HIGH_LEVERAGE_WARNING = 'High leverage: a small move against you liquidates this position.';

const impactWords = (impact: number) => (impact === 0 ? 'none' : `${(impact * 100).toFixed(impact < 0.0001 ? 4 : 2)}%`);

const Preview = ({ preview }: { preview: TOrderPreview }) => {
  if (preview.state !== 'ready') {
    return <PreviewPlaceholder>Enter a size to see the margin, the fee, the entry price and where this position is liquidated.</PreviewPlaceholder>;
  }
  const canLiquidate = Number(preview.liquidationPrice) > 0;
  return (
    <PreviewList label="Order preview">
      <PreviewRow label="Margin" value={formatMoney(preview.margin)} />
      <PreviewRow label="Fee (0.1%)" value={formatMoney(preview.fee)} />
      <PreviewRow label="Total cost" value={formatMoney(preview.cost)} className="font-semibold" />
      <div className="mt-1 flex flex-col gap-2 border-t border-line pt-2">
        <PreviewRow label="Entry price (est.)" value={formatPrice(preview.entryPrice)} />
        <PreviewRow label="Price impact" value={impactWords(preview.impact)} />
        <PreviewRow
          label="Liquidation price"
          value={canLiquidate ? formatPrice(preview.liquidationPrice) : 'None'}
          className={canLiquidate ? 'text-down' : 'text-ink-muted'}
        />
      </div>
    </PreviewList>
  );
};

const LeverageControl = ({ value, onChange }: { value: number; onChange: (v: number) => void }) => {
  const id = useId();
  const isHigh = isHighLeverage(value);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-baseline justify-between gap-3">
        <Label htmlFor={id}>Leverage</Label>
        <output htmlFor={id} data-testid="leverage-value" className={cn('text-lg font-semibold tabular-nums', isHigh ? 'text-warn' : 'text-ink')}>
          {formatLeverage(value)}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={MIN_LEVERAGE}
        max={MAX_LEVERAGE}
        step={1}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        aria-valuetext={formatLeverage(value)}
        aria-describedby={isHigh ? `${id}-warning` : undefined}
        className={cn('h-6 w-full cursor-pointer', isHigh ? 'accent-warn' : 'accent-accent')}
      />
      <div className="flex justify-between text-xs text-ink-faint tabular-nums" aria-hidden="true">
        <span>{formatLeverage(MIN_LEVERAGE)}</span>
        <span>{formatLeverage(HIGH_LEVERAGE)}</span>
        <span>{formatLeverage(MAX_LEVERAGE)}</span>
      </div>
      <QuickPicks label="Quick leverage" values={QUICK_LEVERAGE} selected={value} onPick={onChange} className="flex gap-1.5" buttonClassName="px-0">
        {formatLeverage}
      </QuickPicks>
      <div aria-live="polite">
        {isHigh && (
          <p id={`${id}-warning`} className="flex items-start gap-2 rounded-lg border border-warn/30 bg-warn-soft px-3 py-2 text-sm text-warn">
            <AlertIcon className="mt-0.5 size-4 shrink-0" />
            {HIGH_LEVERAGE_WARNING}
          </p>
        )}
      </div>
    </div>
  );
};

/** What the success notice says, and about which position: it stays only while that position is open. */
type TOpened = { positionId: string; message: string; at: number };

/**
 * Whether an "opened" notice still tells the truth: not once a read of the open positions made
 * after the open no longer lists the position (closed or liquidated since).
 */
const useIsStillOpen = (opened: TOpened | null, userId: string, ticker: string) => {
  const positions = useMyPerpPositions(userId, 'open', { ticker });
  if (!opened) return false;
  if (!positions.data || positions.dataUpdatedAt < opened.at) return true;
  return positions.data.some((p) => p.id === opened.positionId);
};

const OrderForm = ({
  ticker,
  userId,
  balance,
  initialSide = 'long',
  isInSheet = false,
}: {
  ticker: TPerpTicker;
  userId: string;
  balance: string;
  initialSide?: TPerpSide;
  isInSheet?: boolean;
}) => {
  const sizeId = useId();
  const [side, setSide] = useState<TPerpSide>(initialSide);
  const [sizeText, setSizeText] = useState('');
  const [leverage, setLeverage] = useState(DEFAULT_LEVERAGE);
  const [opened, setOpened] = useState<TOpened | null>(null);
  const isStillOpen = useIsStillOpen(opened, userId, ticker.ticker);
  const open = useOpenPerp(ticker.ticker, userId);
  const preview = previewOrder({ markPrice: ticker.markPrice, depth: ticker.depth, side, sizeText, leverage, balance });
  // An optional stop-loss and take-profit, placed on the position once it is open (components/orders).
  const [brackets, setBrackets] = useState(NO_BRACKETS);
  const bracketPreviews = previewBrackets({ side, sizeText, leverage, markPrice: ticker.markPrice, depth: ticker.depth, brackets });
  const attachBrackets = useAttachBrackets(ticker.ticker, userId);

  const clearResult = () => {
    setOpened(null);
    open.reset();
    attachBrackets.reset();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (preview.state !== 'ready' || !bracketPreviews.isValid) return;
    open.mutate(
      { side, size: preview.size, leverage },
      {
        onSuccess: (r) => {
          setOpened({
            positionId: r.position.id,
            at: Date.now(),
            message: `Opened a ${formatLeverage(r.position.leverage)} ${r.position.side} on ${r.position.ticker} at ${formatPrice(r.position.entryPrice)}: size ${formatMoney(r.position.size)}, margin ${formatMoney(r.position.margin)}, fee ${formatMoney(r.fee)}.`,
          });
          setSizeText('');
          void attachBrackets.attach(r.position.id, brackets);
          setBrackets(NO_BRACKETS);
        },
      },
    );
  };

  const sizeError = preview.state === 'invalid' ? preview.reason : undefined;
  const sizeHint = `Position value in dollars. Balance ${formatMoney(balance)}`;
  const verb = side === 'long' ? 'Open long' : 'Open short';

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      <SegmentedControl
        label="Side"
        value={side}
        options={SIDES}
        onChange={(v) => {
          setSide(v);
          clearResult();
        }}
        size="lg"
      />
      <Field id={sizeId} label="Size" hint={sizeHint} error={sizeError}>
        <PrefixedInput
          prefix="$"
          id={sizeId}
          name="size"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0"
          value={sizeText}
          onChange={(e) => {
            setSizeText(e.target.value);
            clearResult();
          }}
          aria-invalid={!!sizeError || undefined}
          aria-describedby={describedBy(sizeId, { error: sizeError, hint: sizeHint })}
          className="tabular-nums"
        />
      </Field>
      <QuickPicks
        label="Quick sizes"
        values={QUICK_SIZES}
        onPick={(s) => {
          setSizeText(s);
          clearResult();
        }}
        className="-mt-2 flex gap-2"
      >
        {(s) => <>${s}</>}
      </QuickPicks>
      <LeverageControl
        value={leverage}
        onChange={(v) => {
          setLeverage(v);
          clearResult();
        }}
      />
      <Preview preview={preview} />
      <BracketFields
        value={brackets}
        onChange={(b) => {
          setBrackets(b);
          clearResult();
        }}
        previews={bracketPreviews}
      />
      {/* In the phone's sheet the button stays in view at its foot, however tall the preview. */}
      <div className={cn(isInSheet && 'sticky bottom-0 -mx-1 bg-surface px-1 pt-1 pb-1')}>
        <SideSubmitButton tone={side === 'long' ? 'up' : 'down'} disabled={preview.state !== 'ready' || !bracketPreviews.isValid} isLoading={open.isPending || attachBrackets.isPending}>
          {verb}
        </SideSubmitButton>
      </div>
      {open.isError && <Notice tone="error">{describeError(open.error, PERP_ERROR_MESSAGES)}</Notice>}
      {opened && isStillOpen && <Notice tone="success">{opened.message}</Notice>}
      {attachBrackets.notice}
    </form>
  );
};

/**
 * Open a leveraged long or short with a live preview; a sign-in prompt for visitors. `initialSide`
 * is the side the form starts on (the phone's bar opens it on the side tapped); `isBare` drops the
 * card around it (inside the phone's sheet, which has its own title).
 */
export const OrderPanel = ({ ticker, initialSide, isBare = false }: { ticker: TPerpTicker; initialSide?: TPerpSide; isBare?: boolean }) => {
  const titleId = useId();
  const tabsId = useId();
  // Market: open now at the mark (the form above). Limit: open when the mark reaches a price (components/orders).
  const [orderType, setOrderType] = useState<'market' | 'limit'>('market');
  const form = (
    <TradeSessionGate skeletons={LOADING_SKELETONS} signedOutMessage="Sign in to trade perpetuals. New players start with $1,000 of play money.">
      {(user) => (
        <div className="flex flex-col gap-4">
          <Tabs label="Order type" idPrefix={tabsId} value={orderType} tabs={ORDER_TYPES} onChange={setOrderType} />
          <div {...tabPanelProps(tabsId, orderType)}>
            {orderType === 'market' ? (
              <OrderForm ticker={ticker} userId={user.id} balance={user.virtualBalance} initialSide={initialSide} isInSheet={isBare} />
            ) : (
              <PerpLimitOrderForm ticker={ticker} userId={user.id} balance={user.virtualBalance} initialSide={initialSide} />
            )}
          </div>
        </div>
      )}
    </TradeSessionGate>
  );
  if (isBare) return form;
  return (
    <Card aria-labelledby={titleId} className="flex flex-col gap-4">
      <CardTitle id={titleId}>Open a position</CardTitle>
      {form}
    </Card>
  );
};
