'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { getMarketsQueryOptions } from '@/lib/client/queries/markets';
import { useBreakingNews } from '@/lib/client/queries/widgets';
import { useRealtimeEvent } from './realtime-provider';
import { useInterval } from './use-interval';

/** How long each headline shows before the next, while the ticker runs. */
export const TICKER_STEP_MS = 7_000;

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

const subscribeReducedMotion = (onChange: () => void) => {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};

/** Whether the reader asked for less motion (false on the server). */
const usePrefersReducedMotion = () =>
  useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );

/** question number → market id, from the active markets (loaded only when news names questions). */
const useMarketIdsByNumber = (isEnabled: boolean) => {
  const markets = useQuery({ ...getMarketsQueryOptions('active'), enabled: isEnabled });
  return new Map((markets.data ?? []).map((m) => [m.questionNumber, m.id]));
};

const ControlButton = ({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) => (
  <button
    type="button"
    aria-label={label}
    title={label}
    onClick={onClick}
    className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-ink-muted hover:bg-elevated hover:text-ink"
  >
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      {children}
    </svg>
  </button>
);

const Strip = ({ children }: { children: ReactNode }) => (
  <section aria-label="Breaking news" className="border-b border-line bg-surface/60">
    <div className="mx-auto flex min-h-11 w-full max-w-5xl items-center gap-3 px-4 py-1 sm:px-6 md:px-10">
      <span className="inline-flex shrink-0 items-center gap-1.5 rounded-full border border-down/30 bg-down-soft px-2 py-0.5 text-[11px] font-semibold tracking-wide text-down uppercase">
        <span aria-hidden="true" className="size-1.5 rounded-full bg-down" />
        Breaking
      </span>
      {children}
    </div>
  </section>
);

/**
 * The breaking-news strip above every page: the recent items, with live ones added at the front
 * as they arrive. One headline shows at a time and the next follows every few seconds, except
 * while the pointer or keyboard focus is on the strip, after the reader presses Pause, or when
 * they prefer reduced motion (then Previous and Next step by hand). A headline tied to an open
 * question links to its market. New items are announced to screen readers; the rotation is not.
 */
export const BreakingNewsTicker = () => {
  const news = useBreakingNews();
  const items = news.data ?? [];
  const hasRelated = items.some((n) => n.relatedQuestions.length > 0);
  const marketIds = useMarketIdsByNumber(hasRelated);
  const prefersReducedMotion = usePrefersReducedMotion();
  // The headline on show, by id: live items arriving at the front must not change what is read.
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [isHovered, setIsHovered] = useState(false);
  const [isFocused, setIsFocused] = useState(false);
  const [isPausedByReader, setIsPausedByReader] = useState(false);
  const [announcement, setAnnouncement] = useState('');

  const count = items.length;
  const selected = items.findIndex((n) => n.id === selectedId);
  const index = selected === -1 ? 0 : selected;
  const step = (by: number) => {
    if (count > 0) setSelectedId(items[(index + by + count) % count]!.id);
  };
  const canRotate = count > 1 && !prefersReducedMotion;
  const isRunning = canRotate && !isPausedByReader && !isHovered && !isFocused;
  useInterval(() => step(1), isRunning ? TICKER_STEP_MS : null);

  const isReaderHolding = isPausedByReader || isHovered || isFocused;
  useRealtimeEvent('breaking_news', (d) => {
    // The cache already has it at the front (see lib/client/realtime/cache). Show it now, unless
    // the reader is holding a headline: then the one they read (this render's) stays.
    if (!isReaderHolding) setSelectedId(d.id);
    else if (selectedId === null && items[index]) setSelectedId(items[index].id);
    setAnnouncement(`Breaking news: ${d.title}. ${d.content}`);
  });

  if (news.isPending) {
    return (
      <Strip>
        <span className="sr-only" role="status">
          Loading breaking news
        </span>
        <Skeleton className="h-4 w-full max-w-md" />
      </Strip>
    );
  }
  if (news.isError || count === 0) {
    return (
      <Strip>
        <p className="truncate text-sm text-ink-muted">{news.isError ? 'Breaking news is unavailable right now.' : 'No breaking news yet.'}</p>
      </Strip>
    );
  }

  const current = items[index]!;
  const marketId = current.relatedQuestions.map((q) => marketIds.get(q)).find((id) => id !== undefined);
  const headline = (
    <>
      <span className="font-medium text-ink">{current.title}</span>
      <span aria-hidden="true" className="text-ink-faint">
        {' · '}
      </span>
      <span className="text-ink-muted">{current.content}</span>
    </>
  );

  return (
    <Strip>
      <div
        className="flex min-w-0 flex-1 items-center gap-1"
        onMouseEnter={() => setIsHovered(true)}
        onMouseLeave={() => setIsHovered(false)}
        onFocus={() => setIsFocused(true)}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setIsFocused(false);
        }}
      >
        {/* Two lines on a phone, where one would hold only a few words. */}
        <p className="line-clamp-2 min-w-0 flex-1 text-xs sm:line-clamp-1 sm:text-sm" data-testid="breaking-news-headline">
          {marketId ? (
            <Link href={`/markets/${encodeURIComponent(marketId)}`} className="rounded hover:underline">
              {headline}
            </Link>
          ) : (
            headline
          )}
        </p>
        {count > 1 && (
          <>
            <span className="hidden shrink-0 text-xs text-ink-faint tabular-nums sm:inline">
              <span className="sr-only">Item </span>
              {index + 1} / {count}
            </span>
            <ControlButton label="Previous headline" onClick={() => step(-1)}>
              <path d="M10 3.5 5.5 8l4.5 4.5" />
            </ControlButton>
            <ControlButton label="Next headline" onClick={() => step(1)}>
              <path d="m6 3.5 4.5 4.5L6 12.5" />
            </ControlButton>
            {canRotate && (
              <ControlButton
                label={isPausedByReader ? 'Resume headlines' : 'Pause headlines'}
                onClick={() => setIsPausedByReader((p) => !p)}
              >
                {isPausedByReader ? <path d="M5 3.5v9l7-4.5z" /> : <path d="M5.5 3.5v9M10.5 3.5v9" />}
              </ControlButton>
            )}
          </>
        )}
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </Strip>
  );
};
