'use client';

import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Notice } from '@/components/ui/error-state';
import { describedBy, Field } from '@/components/ui/field';
import { formatMoney, formatSignedMoney } from '@/components/ui/format';
import { PrefixedInput } from '@/components/ui/input';
import { signedAmountClass } from '@/components/ui/pnl';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { describeError } from '@/lib/client/queries/errors';
import {
  ORDER_ERROR_MESSAGES,
  previewTrigger,
  useCancelOrder,
  useMyOrders,
  usePlacePerpOrder,
  type TBracketText,
  type TPerpOrder,
  type TTriggerPreview,
} from '@/lib/client/queries/orders';
import { usePerpTicker, type TPerpPosition } from '@/lib/client/queries/perps';
import { describeOrder, formatPerpPrice, PERP_ORDER_TYPE_LABELS } from './format';

type TStopType = 'stop_loss' | 'take_profit';

const STOP_TYPES = [
  { value: 'stop_loss', label: 'Stop-loss' },
  { value: 'take_profit', label: 'Take-profit' },
] as const;

/** A trigger's preview under its price box: the loss or gain locked in there, or why it is refused. */
const TriggerOutcome = ({ preview, id }: { preview: TTriggerPreview; id: string }) => {
  if (preview.state !== 'ready') return null;
  const isGain = Number(preview.pnl) >= 0;
  return (
    <div id={id} data-testid="trigger-preview" className="flex flex-col gap-1 rounded-lg border border-line bg-canvas/60 px-3 py-2 text-sm" aria-live="polite">
      <p className="flex items-baseline justify-between gap-3">
        <span className="text-ink-muted">
          {isGain ? 'Gain' : 'Loss'} at {formatPerpPrice(preview.triggerPrice)}
        </span>
        <span className={cn('font-semibold tabular-nums', signedAmountClass(preview.pnl))}>{formatSignedMoney(preview.pnl)}</span>
      </p>
      <p className="flex items-baseline justify-between gap-3 text-xs text-ink-muted">
        <span>Closes at {formatPerpPrice(preview.exitPrice)}, fee {formatMoney(preview.fee)}; you get back</span>
        <span className="tabular-nums">{formatMoney(preview.receive)}</span>
      </p>
      {preview.isPastLiquidation && <p className="text-xs text-warn">This is past the liquidation price: the position would be liquidated before the stop fires.</p>}
    </div>
  );
};

/** One trigger price box (a stop-loss or a take-profit) with its preview, for the open form and a position. */
const TriggerField = ({
  label,
  value,
  onChange,
  preview,
  hint,
  serverError,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  preview: TTriggerPreview;
  hint?: string;
  serverError?: string;
}) => {
  const id = useId();
  const error = preview.state === 'invalid' ? preview.reason : serverError;
  return (
    <div className="flex flex-col gap-2">
      <Field id={id} label={label} hint={hint} error={error}>
        <PrefixedInput
          prefix="$"
          id={id}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={!!error || undefined}
          aria-describedby={[describedBy(id, { error, hint }), preview.state === 'ready' ? `${id}-outcome` : null].filter(Boolean).join(' ') || undefined}
          className="tabular-nums"
        />
      </Field>
      <TriggerOutcome preview={preview} id={`${id}-outcome`} />
    </div>
  );
};

/**
 * The open form's optional stop-loss and take-profit (controlled): hidden behind a button until
 * wanted, each price with the loss or gain at it for the position the form would open. The form
 * places them on the new position once it is open (useAttachBrackets).
 */
export const BracketFields = ({
  value,
  onChange,
  previews,
}: {
  value: TBracketText;
  onChange: (v: TBracketText) => void;
  previews: { stopLoss: TTriggerPreview; takeProfit: TTriggerPreview };
}) => {
  const panelId = useId();
  const [isOpen, setIsOpen] = useState(value.stopLoss !== '' || value.takeProfit !== '');
  return (
    <div className="flex flex-col gap-3">
      <Button
        variant="ghost"
        size="sm"
        className="self-start px-1"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => {
          // Closing drops what was typed: a hidden stop must not be placed.
          if (isOpen) onChange({ stopLoss: '', takeProfit: '' });
          setIsOpen(!isOpen);
        }}
      >
        <span aria-hidden="true">{isOpen ? '−' : '+'}</span> Stop-loss / take-profit
      </Button>
      {isOpen && (
        <div id={panelId} className="flex flex-col gap-3">
          <TriggerField label="Stop-loss price" value={value.stopLoss} onChange={(v) => onChange({ ...value, stopLoss: v })} preview={previews.stopLoss} />
          <TriggerField label="Take-profit price" value={value.takeProfit} onChange={(v) => onChange({ ...value, takeProfit: v })} preview={previews.takeProfit} />
        </div>
      )}
    </div>
  );
};

/**
 * Places the open form's stop-loss and take-profit on the position it just opened, one after the
 * other, and says what happened (the position stays open if one is refused: the player can set it
 * again on the position).
 */
export function useAttachBrackets(ticker: string, userId: string) {
  const place = usePlacePerpOrder(ticker, userId);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const attach = async (positionId: string, brackets: TBracketText) => {
    setNotice(null);
    const wanted = (
      [
        ['stop_loss', brackets.stopLoss.trim()],
        ['take_profit', brackets.takeProfit.trim()],
      ] as const
    ).filter(([, price]) => price !== '');
    const done: string[] = [];
    for (const [type, triggerPrice] of wanted) {
      try {
        const r = await place.mutateAsync({ type, positionId, triggerPrice });
        done.push(`${PERP_ORDER_TYPE_LABELS[type].toLowerCase()} at ${formatPerpPrice(r.order.triggerPrice)}`);
      } catch (e) {
        setNotice({
          tone: 'error',
          text: `The position is open, but its ${PERP_ORDER_TYPE_LABELS[type].toLowerCase()} was not set: ${describeError(e, ORDER_ERROR_MESSAGES)} Set it on the position below.`,
        });
        return;
      }
    }
    if (done.length > 0) setNotice({ tone: 'success', text: `Set a ${done.join(' and a ')}.` });
  };
  return {
    attach,
    isPending: place.isPending,
    reset: () => setNotice(null),
    notice: notice && <Notice tone={notice.tone}>{notice.text}</Notice>,
  };
}

/** One of the position's open stops, with Cancel. */
const StopRow = ({ order, onCancel, isCancelling }: { order: TPerpOrder; onCancel: () => void; isCancelling: boolean }) => (
  <li className="flex items-center justify-between gap-3 rounded-lg border border-line px-3 py-2">
    <span className="text-sm">
      <span className={cn('font-medium', order.type === 'stop_loss' ? 'text-down' : order.type === 'take_profit' ? 'text-up' : 'text-ink')}>
        {PERP_ORDER_TYPE_LABELS[order.type]}
      </span>{' '}
      <span className="text-ink tabular-nums">at {formatPerpPrice(order.triggerPrice)}</span>
      {order.size !== null && <span className="text-ink-muted"> · {formatMoney(order.size)}</span>}
    </span>
    <Button variant="secondary" size="sm" onClick={onCancel} isLoading={isCancelling} aria-label={`Cancel order: ${describeOrder(order)}`}>
      Cancel
    </Button>
  </li>
);

/**
 * An open position's stops: its open stop-loss and take-profit orders with Cancel, and a form to
 * set one (type a price; the preview shows the loss or gain there, by the server's trigger math).
 * The mark is the live ticker's (the position's own, until the ticker list is read).
 */
export const PositionStops = ({ position, userId }: { position: TPerpPosition; userId: string }) => {
  const formId = useId();
  const ticker = usePerpTicker(position.ticker);
  const orders = useMyOrders(userId, { status: 'open', ticker: position.ticker }, { isLive: true });
  const place = usePlacePerpOrder(position.ticker, userId);
  const cancel = useCancelOrder(userId);
  const [isOpen, setIsOpen] = useState(false);
  const [type, setType] = useState<TStopType>('stop_loss');
  const [text, setText] = useState('');
  const [result, setResult] = useState<string | null>(null);

  const stops = (orders.data?.orders ?? []).filter((o): o is TPerpOrder => o.kind === 'perp' && o.positionId === position.id);
  const markPrice = ticker.data?.markPrice ?? position.markPrice;
  const preview = previewTrigger({ position, type, text, markPrice });
  const verb = `Set ${PERP_ORDER_TYPE_LABELS[type].toLowerCase()}`;

  const clear = () => {
    setResult(null);
    place.reset();
    cancel.reset();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (preview.state !== 'ready') return;
    clear();
    place.mutate(
      { type, positionId: position.id, triggerPrice: preview.triggerPrice },
      {
        onSuccess: (r) => {
          setResult(`${PERP_ORDER_TYPE_LABELS[type]} set at ${formatPerpPrice(r.order.triggerPrice)}.`);
          setText('');
        },
      },
    );
  };

  return (
    <div className="mt-4 flex flex-col gap-3 border-t border-line pt-3" data-testid="position-stops">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-medium text-ink">Stops</h3>
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={isOpen}
          aria-controls={formId}
          onClick={() => {
            setIsOpen(!isOpen);
            clear();
          }}
        >
          {isOpen ? 'Hide' : 'Add stop-loss or take-profit'}
        </Button>
      </div>
      {orders.isError ? (
        <p role="alert" className="text-sm text-ink-muted">
          {describeError(orders.error, ORDER_ERROR_MESSAGES)}
        </p>
      ) : stops.length > 0 ? (
        <ul aria-label="Open stops" className="flex flex-col gap-2">
          {stops.map((o) => (
            <StopRow
              key={o.id}
              order={o}
              isCancelling={cancel.isPending && cancel.variables?.id === o.id}
              onCancel={() => {
                clear();
                cancel.mutate(o, { onSuccess: () => setResult(`${PERP_ORDER_TYPE_LABELS[o.type]} at ${formatPerpPrice(o.triggerPrice)} cancelled.`) });
              }}
            />
          ))}
        </ul>
      ) : (
        !orders.isPending && <p className="text-sm text-ink-muted">No stop-loss or take-profit on this position.</p>
      )}
      {isOpen && (
        <form id={formId} onSubmit={onSubmit} noValidate aria-label="New stop" className="flex flex-col gap-3">
          <SegmentedControl
            label="Stop type"
            value={type}
            options={STOP_TYPES}
            onChange={(v) => {
              setType(v);
              clear();
            }}
            size="sm"
          />
          <TriggerField
            label="Trigger price"
            value={text}
            onChange={(v) => {
              setText(v);
              clear();
            }}
            preview={preview}
            hint={`Mark ${formatPerpPrice(markPrice)}. Closes the whole position when the mark reaches it.`}
            serverError={place.isError ? describeError(place.error, ORDER_ERROR_MESSAGES) : undefined}
          />
          <Button type="submit" disabled={preview.state !== 'ready'} isLoading={place.isPending} className="self-start">
            {verb}
          </Button>
        </form>
      )}
      {cancel.isError && <Notice tone="error">{describeError(cancel.error, ORDER_ERROR_MESSAGES)}</Notice>}
      {result && <Notice tone="success">{result}</Notice>}
    </div>
  );
};
