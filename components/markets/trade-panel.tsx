'use client';

import { useId, useState, type FormEvent } from 'react';
import { TradeSessionGate } from '@/components/auth/trade-session-gate';
import { LimitOrderForm } from '@/components/orders/limit-order-form';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { Notice } from '@/components/ui/error-state';
import { describedBy, Field } from '@/components/ui/field';
import { formatMoney, formatSignedMoney } from '@/components/ui/format';
import { Input } from '@/components/ui/input';
import { PreviewList, PreviewPlaceholder, PreviewRow } from '@/components/ui/preview-list';
import { QuickPicks } from '@/components/ui/quick-picks';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { SideSubmitButton } from '@/components/ui/side-submit-button';
import { Tabs, tabPanelProps } from '@/components/ui/tabs';
import { describeError } from '@/lib/client/queries/errors';
import {
  maxSharesText,
  previewTrade,
  TRADE_ERROR_MESSAGES,
  useBuyShares,
  useMarketPositions,
  useSellShares,
  type TMarket,
  type TOutcome,
  type TTradeMode,
  type TTradePreview,
} from '@/lib/client/queries/markets';
import { formatCents, formatPoints, formatProbability, formatShares } from './format';

const MODES = [
  { value: 'buy', label: 'Buy' },
  { value: 'sell', label: 'Sell' },
] as const;

const ORDER_TYPES = [
  { value: 'market', label: 'Market' },
  { value: 'limit', label: 'Limit' },
] as const;

const QUICK_AMOUNTS = ['10', '50', '100'];
/** A move of the price at least this large (5 points) is called out before the order is placed. */
const LARGE_PRICE_IMPACT = 0.05;

/** Whether a preview's trade moves the price by LARGE_PRICE_IMPACT or more. */
const isLargeImpact = (preview: TTradePreview) =>
  (preview.state === 'buy' || preview.state === 'sell') && Math.abs(preview.priceAfter - preview.priceBefore) >= LARGE_PRICE_IMPACT - 1e-12;

/** The trade form's shape while the session loads: trade type, outcome, amount, preview. */
const LOADING_SKELETONS = ['h-10 w-full', 'h-12 w-full', 'h-10 w-full', 'h-24 w-full'];

const outcomeOptions = (market: TMarket) =>
  (['YES', 'NO'] as const).map((o) => ({
    value: o,
    label: o,
    content: (
      <>
        <span className="font-semibold">{o}</span>
        <span className="text-sm font-normal tabular-nums opacity-80">{formatCents(o === 'YES' ? market.yesPrice : market.noPrice)}</span>
      </>
    ),
    selectedClassName: o === 'YES' ? 'bg-up-soft text-up ring-1 ring-up/50' : 'bg-down-soft text-down ring-1 ring-down/50',
  }));

const Preview = ({ preview, outcome, mode, impactId }: { preview: TTradePreview; outcome: TOutcome; mode: TTradeMode; impactId: string }) => {
  if (preview.state !== 'buy' && preview.state !== 'sell') {
    return (
      <PreviewPlaceholder>
        {mode === 'buy' ? 'Enter an amount to see your shares, the fee and the new price.' : 'Enter shares to see what you receive and the new price.'}
      </PreviewPlaceholder>
    );
  }
  const before = formatProbability(preview.priceBefore, { isPrecise: true });
  const after = formatProbability(preview.priceAfter, { isPrecise: true });
  const priceMove = `${before} → ${after}`;
  // A large order says how far it moves the market before it is placed (the submit button points here).
  const impact = isLargeImpact(preview) ? (
    <p id={impactId} className="rounded-lg border border-down/30 bg-down-soft px-3 py-2 text-xs text-down">
      Large order: the {outcome} price moves {formatPoints(preview.priceAfter - preview.priceBefore)}, from {before} to {after}.
    </p>
  ) : null;
  return (
    <>
      <PreviewList label="Trade preview">
        {preview.state === 'buy' ? (
          <>
            <PreviewRow label="Shares" value={formatShares(preview.shares)} />
            <PreviewRow label="Average price" value={formatCents(preview.avgPrice)} />
            <PreviewRow label="Fee (0.1%)" value={formatMoney(preview.fee)} />
            <PreviewRow label={`New ${outcome} price`} value={priceMove} />
            <div className="mt-1 border-t border-line pt-2">
              <PreviewRow label={`Payout if ${outcome} wins`} value={formatMoney(preview.maxPayout)} />
              <p className="mt-0.5 text-right text-xs text-up tabular-nums">{formatSignedMoney(preview.maxProfit)} profit</p>
            </div>
          </>
        ) : (
          <>
            <PreviewRow label="Shares" value={formatShares(preview.shares)} />
            <PreviewRow label="Average price" value={formatCents(preview.avgPrice)} />
            <PreviewRow label="Fee (0.1%)" value={formatMoney(preview.fee)} />
            <PreviewRow label={`New ${outcome} price`} value={priceMove} />
            <div className="mt-1 border-t border-line pt-2">
              <PreviewRow label="You receive" value={formatMoney(preview.proceeds)} className="text-up" />
            </div>
          </>
        )}
      </PreviewList>
      {impact}
    </>
  );
};

const TradeForm = ({ market, userId, balance, initialOutcome = 'YES' }: { market: TMarket; userId: string; balance: string; initialOutcome?: TOutcome }) => {
  const inputId = useId();
  const impactId = useId();
  const [mode, setMode] = useState<TTradeMode>('buy');
  const [outcome, setOutcome] = useState<TOutcome>(initialOutcome);
  const [text, setText] = useState('');
  const [success, setSuccess] = useState<string | null>(null);
  const { positions } = useMarketPositions(userId, market.id);
  const buy = useBuyShares(market.id, userId);
  const sell = useSellShares(market.id, userId);
  const position = positions.find((p) => p.side === outcome);
  const preview = previewTrade({ market, mode, outcome, text, balance, heldShares: position?.shares });
  const mutation = mode === 'buy' ? buy : sell;

  const clearResult = () => {
    setSuccess(null);
    buy.reset();
    sell.reset();
  };
  const onModeChange = (next: TTradeMode) => {
    setMode(next);
    setText('');
    clearResult();
    // Selling starts on the side the user holds, when it is only one.
    if (next === 'sell' && !positions.some((p) => p.side === outcome) && positions.length === 1) setOutcome(positions[0]!.side);
  };
  const onOutcomeChange = (next: TOutcome) => {
    setOutcome(next);
    if (mode === 'sell') setText('');
    clearResult();
  };
  const onTextChange = (next: string) => {
    setText(next);
    clearResult();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (preview.state === 'buy') {
      buy.mutate(
        { outcome, amount: preview.amount },
        {
          onSuccess: (r) => {
            setSuccess(`Bought ${formatShares(r.shares)} ${outcome} shares for ${formatMoney(preview.amount)}`);
            setText('');
          },
        },
      );
    } else if (preview.state === 'sell' && position) {
      const isAll = text.trim() === maxSharesText(position.shares);
      sell.mutate(
        { positionId: position.id, shares: preview.shares, isAll },
        {
          onSuccess: (r) => {
            setSuccess(`Sold ${formatShares(preview.shares)} ${outcome} shares for ${formatMoney(r.proceeds)}`);
            setText('');
          },
        },
      );
    }
  };

  const fieldLabel = mode === 'buy' ? 'Amount' : 'Shares';
  const fieldError = preview.state === 'invalid' ? preview.reason : undefined;
  const fieldHint =
    mode === 'buy'
      ? `Balance ${formatMoney(balance)} · minimum $1`
      : position
        ? `You hold ${formatShares(position.shares)} ${outcome} shares`
        : `You hold no ${outcome} shares in this market`;
  const verb = mode === 'buy' ? 'Buy' : 'Sell';

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      <SegmentedControl label="Trade type" value={mode} options={MODES} onChange={onModeChange} />
      <SegmentedControl label="Outcome" value={outcome} options={outcomeOptions(market)} onChange={onOutcomeChange} size="lg" />
      <Field id={inputId} label={fieldLabel} hint={fieldHint} error={fieldError}>
        <div className="flex gap-2">
          <div className="relative flex-1">
            {mode === 'buy' && (
              <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-ink-faint">
                $
              </span>
            )}
            <Input
              id={inputId}
              name={mode === 'buy' ? 'amount' : 'shares'}
              inputMode="decimal"
              autoComplete="off"
              placeholder={mode === 'buy' ? '0' : '0.00'}
              value={text}
              onChange={(e) => onTextChange(e.target.value)}
              aria-invalid={!!fieldError || undefined}
              aria-describedby={describedBy(inputId, { error: fieldError, hint: fieldHint })}
              className={cn('tabular-nums', mode === 'buy' && 'pl-7')}
            />
          </div>
          {mode === 'sell' && (
            <Button variant="secondary" onClick={() => position && onTextChange(maxSharesText(position.shares))} disabled={!position}>
              Max
            </Button>
          )}
        </div>
      </Field>
      {mode === 'buy' && (
        <QuickPicks label="Quick amounts" values={QUICK_AMOUNTS} onPick={onTextChange} className="-mt-2 flex gap-2">
          {(a) => <>${a}</>}
        </QuickPicks>
      )}
      <Preview preview={preview} outcome={outcome} mode={mode} impactId={impactId} />
      <SideSubmitButton
        tone={outcome === 'YES' ? 'up' : 'down'}
        disabled={preview.state !== mode}
        isLoading={mutation.isPending}
        aria-describedby={isLargeImpact(preview) ? impactId : undefined}
      >
        {verb} {outcome}
      </SideSubmitButton>
      {mutation.isError && <Notice tone="error">{describeError(mutation.error, TRADE_ERROR_MESSAGES)}</Notice>}
      {success && <Notice tone="success">{success}</Notice>}
    </form>
  );
};

/**
 * Buy or sell YES/NO shares with a live preview; a sign-in prompt for visitors. `initialOutcome`
 * picks the side it opens on (a phone's trade bar, a post's YES/NO buttons); YES by default.
 */
export const TradePanel = ({ market, initialOutcome, className }: { market: TMarket; initialOutcome?: TOutcome; className?: string }) => {
  // More than one panel can be on a page (the side panel and a phone's sheet): ids are per panel.
  const titleId = useId();
  const tabsId = useId();
  // Market: trade with the market maker now (the form above). Limit: an order at a price of one's own (components/orders).
  const [orderType, setOrderType] = useState<'market' | 'limit'>('market');
  return (
    <Card aria-labelledby={titleId} className={cn('flex flex-col gap-4', className)}>
      <CardTitle id={titleId}>Trade</CardTitle>
      <TradeSessionGate skeletons={LOADING_SKELETONS} signedOutMessage="Sign in to trade this market. New players start with $1,000 of play money.">
        {(user) => (
          <>
            <Tabs label="Order type" idPrefix={tabsId} value={orderType} tabs={ORDER_TYPES} onChange={setOrderType} />
            <div {...tabPanelProps(tabsId, orderType)}>
              {orderType === 'market' ? (
                <TradeForm market={market} userId={user.id} balance={user.virtualBalance} initialOutcome={initialOutcome} />
              ) : (
                <LimitOrderForm market={market} userId={user.id} balance={user.virtualBalance} initialOutcome={initialOutcome} />
              )}
            </div>
          </>
        )}
      </TradeSessionGate>
    </Card>
  );
};
