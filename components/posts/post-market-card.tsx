'use client';

import Link from 'next/link';
import { useState } from 'react';
import { formatCents, formatProbability } from '@/components/markets/format';
import { PriceChange } from '@/components/markets/price-change';
import { TradePanel } from '@/components/markets/trade-panel';
import { Modal } from '@/components/moderation/modal';
import { LiveValue } from '@/components/realtime/live-value';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/components/ui/cn';
import { ErrorState } from '@/components/ui/error-state';
import { MarketsIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { useMarket, type TOutcome } from '@/lib/client/queries/markets';
import { usePostMarket, useRefreshOwnPostPosition, type TPost } from '@/lib/client/queries/posts';
import { useSession } from '@/lib/client/queries/users';
import { describeHolding } from '@/lib/posts/text';

/** The dialog (a bottom sheet on phones) holding the trade panel for one market. */
const TradeSheet = ({ marketId, question, side, onClose }: { marketId: string; question: string; side: TOutcome; onClose: () => void }) => {
  const market = useMarket(marketId);
  return (
    <Modal
      title="Trade this market"
      description={question}
      onClose={onClose}
      className="max-sm:mb-0 max-sm:max-h-[92dvh] max-sm:w-full max-sm:max-w-none max-sm:rounded-b-none"
    >
      {market.isPending ? (
        <div role="status" className="flex flex-col gap-3" aria-busy="true" aria-label="Loading the market">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : market.isError ? (
        <ErrorState title="The market did not load" message={describeError(market.error)} onRetry={() => void market.refetch()} isRetrying={market.isFetching} />
      ) : (
        <div className="flex flex-col gap-3">
          <TradePanel market={market.data} initialOutcome={side} />
          <Link href={`/markets/${encodeURIComponent(marketId)}`} className="text-center text-sm font-medium text-accent hover:underline">
            Open the market page
          </Link>
        </div>
      )}
    </Modal>
  );
};

const statusOf = (m: NonNullable<TPost['market']>) =>
  m.status === 'resolved' ? (
    <Badge tone={m.resolvedOutcome === 'YES' ? 'up' : 'down'}>Resolved {m.resolvedOutcome ?? ''}</Badge>
  ) : (
    <Badge tone="accent">Live</Badge>
  );

const sideButtonClass = (side: TOutcome) =>
  cn(
    'inline-flex h-10 min-w-0 flex-1 items-center justify-center gap-1.5 rounded-lg px-2.5 text-sm whitespace-nowrap tabular-nums transition-colors sm:justify-between sm:px-3',
    'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-offset-1 focus-visible:ring-offset-canvas',
    side === 'YES' ? 'bg-up-soft text-up ring-1 ring-up/40 hover:bg-up/20 focus-visible:ring-up' : 'bg-down-soft text-down ring-1 ring-down/40 hover:bg-down/20 focus-visible:ring-down',
  );

/**
 * The market a post is about, live: the question (to its page), the YES probability (moving with
 * every trade), the 24 h move and the status; the author's holding when they have one; one-tap
 * YES and NO opening the trade panel on that side.
 */
export const PostMarketCard = ({ post, className }: { post: TPost; className?: string }) => {
  const market = usePostMarket(post.market);
  const [side, setSide] = useState<TOutcome | null>(null);
  const session = useSession();
  const refreshOwnPosition = useRefreshOwnPostPosition();
  if (!market) return null;
  const isOpen = market.status === 'active';
  const author = post.author.displayName || post.author.username;
  return (
    <section aria-label={`Market: ${market.question}`} data-testid="post-market-card" className={cn('mt-3 rounded-xl border border-line bg-canvas/60 p-3', className)}>
      <div className="flex items-start gap-2.5">
        <MarketsIcon className="mt-0.5 size-4.5 shrink-0 text-ink-muted" aria-hidden="true" />
        <Link
          href={`/markets/${encodeURIComponent(market.id)}`}
          className="min-w-0 flex-1 text-sm font-medium leading-snug text-ink hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-accent/50 focus-visible:outline-none"
        >
          {market.question}
        </Link>
        {statusOf(market)}
      </div>
      <div className="mt-2 flex flex-wrap items-baseline gap-x-3 gap-y-1 pl-7">
        <span className="text-lg font-semibold tabular-nums text-ink">
          <LiveValue value={market.yesPrice}>{formatProbability(market.yesPrice)}</LiveValue>
          <span className="ml-1 text-xs font-normal text-ink-muted">YES</span>
        </span>
        {isOpen && <PriceChange change={market.change24h} className="text-sm" />}
      </div>
      {post.authorPosition && (
        <p className="mt-1 pl-7 text-xs text-ink-muted" data-testid="post-author-position">
          <span className="font-medium text-ink">{author}</span> {describeHolding(post.authorPosition)}
        </p>
      )}
      {isOpen && (
        <div className="mt-3 flex gap-2 sm:pl-7" role="group" aria-label="Trade this market">
          {(['YES', 'NO'] as const).map((s) => (
            <button
              key={s}
              type="button"
              className={sideButtonClass(s)}
              onClick={() => setSide(s)}
              aria-haspopup="dialog"
              aria-label={`Buy ${s} at ${formatCents(s === 'YES' ? market.yesPrice : market.noPrice)}`}
            >
              <span className="font-semibold">Buy {s}</span>
              <span className="text-xs font-normal">{formatCents(s === 'YES' ? market.yesPrice : market.noPrice)}</span>
            </button>
          ))}
        </div>
      )}
      {side && (
        <TradeSheet
          marketId={market.id}
          question={market.question}
          side={side}
          onClose={() => {
            setSide(null);
            refreshOwnPosition(post, session.user?.id);
          }}
        />
      )}
    </section>
  );
};
