'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { CloseIcon } from '@/components/ui/icons';
import { StickyActionBar, StickyActionBarSpacer } from '@/components/ui/sticky-action-bar';
import type { TPerpSide, TPerpTicker } from '@/lib/client/queries/perps';
import { formatPrice } from './format';
import { OrderPanel } from './order-panel';

/**
 * The phone's way to trade a ticker: a bar fixed above the tab bar with the mark and Long / Short,
 * each opening the order form in a bottom sheet on that side. The sheet is a modal <dialog>, so
 * focus moves into it and stays there, Escape closes it and the page behind is inert. Phones
 * only (the bar hides from `md` up, where the side panel is in view).
 */
export const PerpOrderSheet = ({ ticker }: { ticker: TPerpTicker }) => {
  const titleId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  // A new request each tap: the form starts fresh on the side tapped.
  const [request, setRequest] = useState<{ side: TPerpSide; nonce: number } | null>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (request && dialog && !dialog.open) dialog.showModal();
  }, [request]);

  const openOn = (side: TPerpSide) => setRequest((r) => ({ side, nonce: (r?.nonce ?? 0) + 1 }));
  const close = () => dialogRef.current?.close();

  return (
    <>
      <StickyActionBarSpacer />
      <StickyActionBar label={`Trade ${ticker.ticker}`}>
        <div className="min-w-0 flex-1 text-xs text-ink-muted">
          Mark <span className="block text-sm font-semibold text-ink tabular-nums">{formatPrice(ticker.markPrice)}</span>
        </div>
        <Button size="sm" className="bg-up text-canvas hover:bg-up/85 hover:text-canvas" onClick={() => openOn('long')} aria-haspopup="dialog">
          Long
        </Button>
        <Button size="sm" className="bg-down text-canvas hover:bg-down/85 hover:text-canvas" onClick={() => openOn('short')} aria-haspopup="dialog">
          Short
        </Button>
      </StickyActionBar>
      <dialog
        ref={dialogRef}
        aria-labelledby={titleId}
        onClose={() => setRequest(null)}
        onClick={(e) => {
          // A tap on the backdrop (the dialog element itself, outside its panel) closes the sheet.
          if (e.target === e.currentTarget) close();
        }}
        className="fixed inset-x-0 top-auto bottom-0 m-0 max-h-[92dvh] w-full max-w-none overflow-y-auto rounded-t-2xl border-t border-line bg-surface p-0 text-ink backdrop:bg-black/50 md:hidden"
      >
        {request && (
          <div className="flex flex-col gap-4 p-4 pb-[calc(1rem+env(safe-area-inset-bottom))]">
            <div className="flex items-center justify-between gap-3">
              <h2 id={titleId} className="text-base font-semibold text-ink">
                Open a position on {ticker.ticker}
              </h2>
              <Button variant="ghost" size="sm" onClick={close} aria-label="Close order form">
                <CloseIcon className="size-5" />
              </Button>
            </div>
            <OrderPanel key={request.nonce} ticker={ticker} initialSide={request.side} isBare />
          </div>
        )}
      </dialog>
    </>
  );
};
