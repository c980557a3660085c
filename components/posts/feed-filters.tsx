'use client';

import { useId } from 'react';
import type { TFeedFilter } from '@/lib/client/queries/posts';

/** The feed's filters in the URL: `?hideNpcs=1&held=1` (a shared or reloaded link keeps them). */
export const parseFeedFilter = (params: { get(name: string): string | null }): TFeedFilter => {
  const on = (v: string | null) => v === '1' || v === 'true';
  return { hideNpcs: on(params.get('hideNpcs')), held: on(params.get('held')) };
};

/** The search string for a filter, keeping the URL's other parameters. */
export const feedFilterSearch = (current: string, filter: TFeedFilter): string => {
  const params = new URLSearchParams(current);
  for (const key of ['hideNpcs', 'held'] as const) {
    if (filter[key]) params.set(key, '1');
    else params.delete(key);
  }
  const s = params.toString();
  return s ? `?${s}` : '';
};

const Toggle = ({ label, hint, checked, onChange }: { label: string; hint: string; checked: boolean; onChange: (checked: boolean) => void }) => {
  const id = useId();
  return (
    <label
      htmlFor={id}
      className="inline-flex cursor-pointer items-center gap-2 rounded-full border border-line bg-surface px-3 py-1.5 text-sm text-ink has-[:checked]:border-accent/60 has-[:checked]:bg-accent/10 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent/40"
    >
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="size-4 accent-[var(--color-accent)] outline-none"
        checked={checked}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>{label}</span>
      <span id={`${id}-hint`} className="sr-only">
        {hint}
      </span>
    </label>
  );
};

/**
 * Two switches over the Latest and Following feeds: "Hide NPCs" (players' posts only) and, signed
 * in, "Only what I hold" (posts about the markets and tickers one has a position in). Native
 * checkboxes: Tab reaches them, Space flips them.
 */
export const FeedFilters = ({ filter, isSignedIn, onChange }: { filter: TFeedFilter; isSignedIn: boolean; onChange: (next: TFeedFilter) => void }) => (
  <div role="group" aria-label="Feed filters" className="flex flex-wrap items-center gap-2">
    <Toggle label="Hide NPCs" hint="Show only posts by players, not by the NPC actors" checked={!!filter.hideNpcs} onChange={(hideNpcs) => onChange({ ...filter, hideNpcs })} />
    {isSignedIn && (
      <Toggle
        label="Only what I hold"
        hint="Show only posts about the markets and tickers you have an open position in"
        checked={!!filter.held}
        onChange={(held) => onChange({ ...filter, held })}
      />
    )}
  </div>
);
