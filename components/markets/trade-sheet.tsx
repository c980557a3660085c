'use client';

import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { CloseIcon } from '@/components/ui/icons';
import { StickyActionBar, StickyActionBarSpacer } from '@/components/ui/sticky-action-bar';
import type { TMarket, TOutcome } from '@/lib/client/queries/markets';
import { formatCents } from './format';
import { TradePanel } from './trade-panel';

const SIDE_CLASS: Record<TOutcome, string> = {
  YES: 'bg-up text-canvas hover:bg-up/85 hover:text-canvas',
  NO: 'bg-down text-canvas hover:bg-down/85 hover:text-canvas',
};

/**
 * A phone's way to trade without scrolling: a bar fixed above the tab bar with the YES and NO
 * prices; tapping one opens the trade panel on that side as a bottom sheet (a modal dialog: focus
 * moves into it, Escape or the backdrop closes it, focus returns to the button). Hidden from `md` up,
 * where the side panel is on screen.
 */
export const MobileTradeBar = ({ market }: { market: TMarket }) => {
  const [side, setSide] = useState<TOutcome | null>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (side && !dialog.open) dialog.showModal();
    if (!side && dialog.open) dialog.close();
  }, [side]);

  return (
    <>
      <StickyActionBarSpacer />
      <StickyActionBar label="Trade this market">
        {(['YES', 'NO'] as const).map((o) => (
          <Button key={o} className={cn('h-11 flex-1 text-base', SIDE_CLASS[o])} onClick={() => setSide(o)} aria-haspopup="dialog">
            Buy {o} <span className="font-normal tabular-nums opacity-90">{formatCents(o === 'YES' ? market.yesPrice : market.noPrice)}</span>
          </Button>
        ))}
      </StickyActionBar>
      <dialog
        ref={dialogRef}
        aria-label={`Trade: ${market.question}`}
        onClose={() => setSide(null)}
        // A click on the backdrop lands on the dialog element itself: close, as a sheet does.
        onClick={(e) => e.target === e.currentTarget && setSide(null)}
        className="mx-0 mt-auto mb-0 max-h-[85dvh] w-full max-w-none overflow-y-auto rounded-t-2xl bg-canvas p-3 pb-[calc(0.75rem+env(safe-area-inset-bottom))] text-ink backdrop:bg-black/60 md:hidden"
      >
        {side && (
          <div className="flex flex-col gap-2">
            <div className="flex items-center justify-between gap-3 px-1">
              <p className="line-clamp-2 text-sm font-medium text-ink">{market.question}</p>
              <Button variant="ghost" size="sm" aria-label="Close the trade panel" onClick={() => setSide(null)}>
                <CloseIcon className="size-5" />
              </Button>
            </div>
            <TradePanel market={market} initialOutcome={side} className="border-0 p-3 sm:p-4" />
          </div>
        )}
      </dialog>
    </>
  );
};
