'use client';

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { TradeSessionGate } from '@/components/auth/trade-session-gate';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { Notice } from '@/components/ui/error-state';
import { describedBy, Field } from '@/components/ui/field';
import { formatMoney, formatSignedMoney } from '@/components/ui/format';
import { Input, PrefixedInput } from '@/components/ui/input';
import { PreviewList, PreviewPlaceholder, PreviewRow } from '@/components/ui/preview-list';
import { pnlClass } from '@/components/ui/pnl';
import { QuickPicks } from '@/components/ui/quick-picks';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { Select } from '@/components/ui/select';
import { describeError } from '@/lib/client/queries/errors';
import {
  POOL_ERROR_MESSAGES,
  previewDeposit,
  previewWithdraw,
  sharesForFraction,
  useDepositToPool,
  useWithdrawFromPool,
  WITHDRAW_FRACTIONS,
  type TDepositPreview,
  type TPool,
  type TPoolLot,
  type TWithdrawPreview,
} from '@/lib/client/queries/pools';
import { formatFeeRate, formatLotTime, formatPoolShares, formatSharePrice } from './format';

export type TInvestMode = 'deposit' | 'withdraw';

/**
 * What the page asks of the panel: a mode and, for withdrawing, the lot to start on. `nonce`
 * changes with each request (a lot's "Withdraw" button), so the same lot asked twice still
 * moves the focus.
 */
export type TInvestRequest = { mode: TInvestMode; lotId?: string; nonce: number };

const MODES = [
  { value: 'deposit', label: 'Deposit' },
  { value: 'withdraw', label: 'Withdraw' },
] as const;

const QUICK_AMOUNTS = ['50', '100', '500'];
/** The panel's shape while the session loads: mode, amount, quick picks, preview, button. */
const LOADING_SKELETONS = ['h-10 w-full', 'h-10 w-full', 'h-8 w-full', 'h-20 w-full', 'h-11 w-full'];

const percentWords = (f: number) => `${f * 100}%`;

// ---------------------------------------------------------------------------------------------
// Deposit

const DepositPreview = ({ preview, pool }: { preview: TDepositPreview; pool: Pick<TPool, 'performanceFeeRate'> }) => {
  if (preview.state !== 'ready') return <PreviewPlaceholder>Enter an amount to see how many shares it buys at the current share price.</PreviewPlaceholder>;
  return (
    <PreviewList label="Deposit preview">
      <PreviewRow label="Share price" value={formatSharePrice(preview.sharePrice)} />
      <PreviewRow label="Shares you receive" value={formatPoolShares(preview.shares)} className="font-semibold" />
      <div className="mt-1 flex flex-col gap-2 border-t border-line pt-2">
        <PreviewRow label="Deposit fee" value="None" className="text-ink-muted" />
        <PreviewRow label="Performance fee" value={`${formatFeeRate(pool.performanceFeeRate)} of profit, on withdrawal`} className="text-ink-muted" />
      </div>
    </PreviewList>
  );
};

const DepositForm = ({ pool, userId, balance }: { pool: TPool; userId: string; balance: string }) => {
  const amountId = useId();
  const [amountText, setAmountText] = useState('');
  const [success, setSuccess] = useState<string | null>(null);
  const deposit = useDepositToPool(pool.id, userId);
  const preview = previewDeposit({ pool, amountText, balance });

  const onAmountChange = (next: string) => {
    setAmountText(next);
    setSuccess(null);
    deposit.reset();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (preview.state !== 'ready') return;
    deposit.mutate(preview.amount, {
      onSuccess: (r) => {
        setSuccess(
          `Deposited ${formatMoney(r.deposit.amount)} into ${pool.name}: ${formatPoolShares(r.deposit.shares)} shares at ${formatSharePrice(r.deposit.sharePrice)}. New balance ${formatMoney(r.newBalance)}.`,
        );
        setAmountText('');
      },
    });
  };

  const error = preview.state === 'invalid' ? preview.reason : undefined;
  const hint = `Balance ${formatMoney(balance)} · minimum $1`;

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate aria-label={`Deposit into ${pool.name}`}>
      <Field id={amountId} label="Amount" hint={hint} error={error}>
        <PrefixedInput
          prefix="$"
          id={amountId}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0"
          value={amountText}
          onChange={(e) => onAmountChange(e.target.value)}
          aria-invalid={!!error || undefined}
          aria-describedby={describedBy(amountId, { error, hint })}
          className="tabular-nums"
        />
      </Field>
      <QuickPicks label="Quick amounts" values={QUICK_AMOUNTS} onPick={onAmountChange} className="-mt-2 flex gap-2">
        {(a) => <>${a}</>}
      </QuickPicks>
      <DepositPreview preview={preview} pool={pool} />
      <Button type="submit" className="h-11 w-full text-base" disabled={preview.state !== 'ready'} isLoading={deposit.isPending}>
        Deposit
      </Button>
      {deposit.isError && <Notice tone="error">{describeError(deposit.error, POOL_ERROR_MESSAGES)}</Notice>}
      {success && <Notice tone="success">{success}</Notice>}
    </form>
  );
};

// ---------------------------------------------------------------------------------------------
// Withdraw

const lotLabel = (lot: TPoolLot) => `${formatMoney(lot.amount)} · ${formatLotTime(lot.createdAt)}`;

const WithdrawPreview = ({ preview, pool }: { preview: TWithdrawPreview; pool: Pick<TPool, 'performanceFeeRate'> }) => {
  if (preview.state !== 'ready') {
    return <PreviewPlaceholder>Enter shares to see their value, your profit, the performance fee and what you receive.</PreviewPlaceholder>;
  }
  return (
    <PreviewList label="Withdrawal preview">
      <PreviewRow label="Share price" value={formatSharePrice(preview.sharePrice)} />
      <PreviewRow label="Value" value={formatMoney(preview.value)} />
      <PreviewRow label="Profit" value={formatSignedMoney(preview.profit)} className={pnlClass(Number(preview.profit))} />
      <PreviewRow label={`Performance fee (${formatFeeRate(pool.performanceFeeRate)} of profit)`} value={formatMoney(preview.performanceFee)} />
      <div className="mt-1 border-t border-line pt-2">
        <PreviewRow label="You receive" value={formatMoney(preview.net)} className="font-semibold text-up" />
      </div>
    </PreviewList>
  );
};

const WithdrawForm = ({ pool, userId, lots, request }: { pool: TPool; userId: string; lots: readonly TPoolLot[]; request: TInvestRequest | null }) => {
  const lotId = useId();
  const sharesId = useId();
  const sharesRef = useRef<HTMLInputElement>(null);
  const [chosenLotId, setChosenLotId] = useState<string | null>(request?.lotId ?? null);
  const [sharesText, setSharesText] = useState('');
  const [success, setSuccess] = useState<string | null>(null);
  const withdraw = useWithdrawFromPool(pool.id, userId);
  // A lot withdrawn in full leaves the list: fall back to the newest that remains.
  const lot = lots.find((l) => l.id === chosenLotId) ?? lots[0];
  const preview = previewWithdraw({ pool, lot, sharesText });

  // A lot's "Withdraw" button picks that lot and brings the shares box into view.
  const [seenNonce, setSeenNonce] = useState(request?.nonce);
  if (request && request.nonce !== seenNonce) {
    setSeenNonce(request.nonce);
    if (request.lotId) setChosenLotId(request.lotId);
    setSharesText('');
  }
  useEffect(() => {
    if (request?.lotId === undefined) return;
    sharesRef.current?.focus({ preventScroll: true });
    sharesRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [request?.nonce, request?.lotId]);

  const clearResult = () => {
    setSuccess(null);
    withdraw.reset();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (preview.state !== 'ready' || !lot) return;
    withdraw.mutate(
      { depositId: lot.id, shares: preview.shares },
      {
        onSuccess: (r) => {
          const w = r.withdrawal;
          setSuccess(
            `Withdrew ${formatPoolShares(w.shares)} shares at ${formatSharePrice(w.sharePrice)}: value ${formatMoney(w.value)}, profit ${formatSignedMoney(w.pnl)}, performance fee ${formatMoney(w.performanceFee)}, net ${formatMoney(w.netAmount)} to your balance. New balance ${formatMoney(r.newBalance)}.`,
          );
          setSharesText('');
        },
      },
    );
  };

  if (lots.length === 0) {
    return (
      <div className="flex flex-col gap-3">
        <p className="text-sm text-ink-muted">You have no shares in this pool. Each deposit you make becomes a lot you can withdraw from, partly or in full.</p>
        {success && <Notice tone="success">{success}</Notice>}
      </div>
    );
  }

  const error = preview.state === 'invalid' ? preview.reason : undefined;
  const hint = lot ? `This deposit holds ${formatPoolShares(lot.remainingShares)} shares, worth ${formatMoney(lot.currentValue)}` : undefined;

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate aria-label={`Withdraw from ${pool.name}`}>
      <Field id={lotId} label="From deposit">
        <Select
          id={lotId}
          name="depositId"
          value={lot?.id ?? ''}
          onChange={(e) => {
            setChosenLotId(e.target.value);
            setSharesText('');
            clearResult();
          }}
        >
          {lots.map((l) => (
            <option key={l.id} value={l.id}>
              {lotLabel(l)}
            </option>
          ))}
        </Select>
      </Field>
      <Field id={sharesId} label="Shares" hint={hint} error={error}>
        <Input
          ref={sharesRef}
          id={sharesId}
          name="shares"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={sharesText}
          onChange={(e) => {
            setSharesText(e.target.value);
            clearResult();
          }}
          aria-invalid={!!error || undefined}
          aria-describedby={describedBy(sharesId, { error, hint })}
          className="tabular-nums"
        />
      </Field>
      <QuickPicks
        label="Quick shares"
        values={WITHDRAW_FRACTIONS}
        onPick={(f) => {
          if (!lot) return;
          setSharesText(sharesForFraction(lot.remainingShares, f));
          clearResult();
        }}
        className="-mt-2 flex gap-2"
      >
        {percentWords}
      </QuickPicks>
      <WithdrawPreview preview={preview} pool={pool} />
      <Button type="submit" variant="secondary" className="h-11 w-full text-base" disabled={preview.state !== 'ready'} isLoading={withdraw.isPending}>
        Withdraw
      </Button>
      {withdraw.isError && <Notice tone="error">{describeError(withdraw.error, POOL_ERROR_MESSAGES)}</Notice>}
      {success && <Notice tone="success">{success}</Notice>}
    </form>
  );
};

// ---------------------------------------------------------------------------------------------
// The panel

/**
 * Deposit into the pool, or withdraw shares of one of your lots, each with a live preview from
 * the server's own accounting; a sign-in prompt for visitors. `lots` are the caller's lots that
 * still hold shares.
 */
export const InvestPanel = ({
  pool,
  lots,
  request,
  onModeChange,
}: {
  pool: TPool;
  lots: readonly TPoolLot[];
  request: TInvestRequest | null;
  onModeChange: (mode: TInvestMode) => void;
}) => {
  const mode = request?.mode ?? 'deposit';
  return (
    <Card aria-labelledby="invest-title" className="flex flex-col gap-4">
      <CardTitle id="invest-title">Invest</CardTitle>
      <TradeSessionGate skeletons={LOADING_SKELETONS} signedOutMessage="Sign in to invest in this pool. New players start with $1,000 of play money.">
        {(user) => (
          <>
            <SegmentedControl label="Action" value={mode} options={MODES} onChange={onModeChange} />
            {mode === 'deposit' ? (
              <DepositForm pool={pool} userId={user.id} balance={user.virtualBalance} />
            ) : (
              <WithdrawForm pool={pool} userId={user.id} lots={lots} request={request} />
            )}
          </>
        )}
      </TradeSessionGate>
    </Card>
  );
};
