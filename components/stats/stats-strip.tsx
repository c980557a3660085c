'use client';

import { useId, useSyncExternalStore } from 'react';
import { cn } from '@/components/ui/cn';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCompactMoney, formatCount } from '@/components/ui/format';
import { useStats } from '@/lib/client/queries/stats';

/** Where a phone remembers that its reader folded the stats away ('1' folded; absent: open). */
export const STATS_COLLAPSED_KEY = 'feed.stats.collapsed';

const readCollapsed = () => {
  try {
    return window.localStorage.getItem(STATS_COLLAPSED_KEY) === '1';
  } catch {
    return false; // storage refused (private mode, a policy): open, and nothing remembered
  }
};

/** This visit's choice when storage refuses it, and who to tell when it changes (this tab; other tabs hear `storage`). */
let fallback: boolean | null = null;
const listeners = new Set<() => void>();

const writeCollapsed = (isCollapsed: boolean) => {
  try {
    if (isCollapsed) window.localStorage.setItem(STATS_COLLAPSED_KEY, '1');
    else window.localStorage.removeItem(STATS_COLLAPSED_KEY);
    fallback = null;
  } catch {
    fallback = isCollapsed; // not remembered; the button still works for this visit
  }
  for (const l of listeners) l();
};

const subscribe = (onChange: () => void) => {
  listeners.add(onChange);
  const onStorage = (e: StorageEvent) => {
    if (e.key === STATS_COLLAPSED_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
};

const getCollapsed = () => fallback ?? readCollapsed();
/** The server renders the tiles open: it cannot know the choice. */
const getServerCollapsed = () => false;

/**
 * The public stats strip on the home page: how alive the world is right now. Hidden when the
 * figures cannot load. `isCollapsible` (the phone's copy, placed after the feed's first post) adds
 * a disclosure button that folds the tiles away, remembered in localStorage; it opens by default,
 * and the stored choice applies once hydrated (the server cannot know it).
 */
export const StatsStrip = ({ isCollapsible = false, className }: { isCollapsible?: boolean; className?: string }) => {
  const stats = useStats();
  const tilesId = useId();
  const isStoredCollapsed = useSyncExternalStore(subscribe, getCollapsed, getServerCollapsed);
  const isCollapsed = isCollapsible && isStoredCollapsed;
  if (stats.isError) return null;
  const s = stats.data;
  const items = s
    ? [
        { label: 'Players', value: formatCount(s.players) },
        { label: 'Active today', value: formatCount(s.activeUsers24h) },
        { label: 'Open questions', value: formatCount(s.openQuestions) },
        { label: 'Prediction volume, 24 h', value: formatCompactMoney(Number(s.predictionVolume24h)) },
        { label: 'Perps open interest', value: formatCompactMoney(Number(s.perpsOpenInterest)) },
        { label: 'Pool assets', value: formatCompactMoney(Number(s.poolAssets)) },
      ]
    : [];
  const toggle = () => writeCollapsed(!isCollapsed);
  return (
    <section aria-label="The world right now" className={cn(!isCollapsible && 'mb-4', className)} data-testid={isCollapsible ? 'stats-strip-collapsible' : undefined}>
      {isCollapsible && (
        <button
          type="button"
          aria-expanded={!isCollapsed}
          aria-controls={tilesId}
          onClick={toggle}
          className="mb-2 inline-flex h-9 items-center gap-2 rounded-lg px-1 text-sm font-medium text-ink-muted hover:text-ink focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/50"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className={cn('size-4 transition-transform', isCollapsed ? '-rotate-90' : 'rotate-0')} fill="none">
            <path d="M5.5 7.5 10 12l4.5-4.5" stroke="currentColor" strokeWidth="1.8" fill="none" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          World stats
        </button>
      )}
      <dl id={tilesId} hidden={isCollapsed} className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
        {s
          ? items.map((i) => (
              <div key={i.label} className="rounded-lg border border-line bg-surface px-3 py-2">
                <dt className="text-xs text-ink-muted">{i.label}</dt>
                <dd className="text-base font-semibold tabular-nums text-ink">{i.value}</dd>
              </div>
            ))
          : Array.from({ length: 6 }, (_, i) => <Skeleton key={i} className="h-14 w-full" />)}
      </dl>
    </section>
  );
};
