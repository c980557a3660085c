import Link from 'next/link';
import { cn } from '@/components/ui/cn';
import { MarketsIcon, PerpsIcon } from '@/components/ui/icons';
import type { TPostTrade } from '@/lib/client/queries/posts';
import { describeTrade, tradeHref } from '@/lib/posts/text';

const toneOf = (t: TPostTrade) => {
  const isUp = t.side === 'YES' || t.side === 'long';
  return isUp ? 'border-up/40 bg-up-soft text-up' : 'border-down/40 bg-down-soft text-down';
};

/** The trade a post reports ("Opened 40× long $ORBT at 12.30"), linking to its market or ticker. */
export const PostTradeChip = ({ trade, className }: { trade: TPostTrade; className?: string }) => {
  const words = describeTrade(trade);
  const href = tradeHref(trade);
  const Icon = trade.kind === 'perp' ? PerpsIcon : MarketsIcon;
  const classes = cn(
    'inline-flex max-w-full items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs font-medium tabular-nums',
    'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/50',
    toneOf(trade),
    className,
  );
  const body = (
    <>
      <Icon className="size-3.5 shrink-0" aria-hidden="true" />
      <span className="truncate">{words}</span>
    </>
  );
  return href ? (
    <Link href={href} className={cn(classes, 'hover:underline')} aria-label={`Trade: ${words}`} data-testid="post-trade-chip">
      {body}
    </Link>
  ) : (
    <span className={classes} data-testid="post-trade-chip">
      {body}
    </span>
  );
};
