'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { MarketsIcon, SearchIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Tabs, tabPanelProps } from '@/components/ui/tabs';
import { describeError } from '@/lib/client/queries/errors';
import {
  MARKET_SORTS,
  marketFiltersSearch,
  parseMarketFilters,
  useFilteredMarkets,
  useMarketFacets,
  type TMarketFilters,
  type TMarketSort,
  type TMarketStatus,
} from '@/lib/client/queries/markets';
import { MarketCard, MarketCardSkeleton } from './market-card';

const TABS = [
  { value: 'active', label: 'Active' },
  { value: 'resolved', label: 'Resolved' },
] as const;

const EMPTY: Record<TMarketStatus, { title: string; description: string }> = {
  active: { title: 'No open markets right now', description: 'New questions about the game world open regularly. Check back soon.' },
  resolved: { title: 'Nothing resolved yet', description: 'Once a question is settled it moves here with its outcome.' },
};

/** How long typing pauses before the search goes into the address and runs. */
const SEARCH_DEBOUNCE_MS = 300;

/** Three selects side by side fit a 390 px phone with tighter padding. */
const SELECT_CLASS = 'w-full pr-6! pl-2.5! sm:pr-8! sm:pl-3!';

const isFiltered = (f: TMarketFilters) => !!(f.q || f.topic || f.ticker);

const MarketGrid = ({ filters, onClear }: { filters: TMarketFilters; onClear: () => void }) => {
  const markets = useFilteredMarkets(filters);
  if (markets.isPending) {
    return (
      <div role="status" aria-label="Loading markets" className="grid gap-3 sm:grid-cols-2 sm:gap-4 lg:grid-cols-3">
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <MarketCardSkeleton key={i} />
        ))}
      </div>
    );
  }
  if (markets.isError) {
    return <ErrorState title="Markets did not load" message={describeError(markets.error)} onRetry={() => markets.refetch()} isRetrying={markets.isFetching} />;
  }
  if (markets.data.length === 0) {
    if (isFiltered(filters)) {
      return (
        <EmptyState
          icon={<SearchIcon />}
          title="No markets match"
          description="Try other words, or clear the search and filters."
          action={<Button onClick={onClear}>Clear search and filters</Button>}
        />
      );
    }
    return <EmptyState icon={<MarketsIcon />} {...EMPTY[filters.status]} />;
  }
  return (
    <ul aria-label={`${markets.data.length} ${markets.data.length === 1 ? 'market' : 'markets'}`} aria-busy={markets.isPlaceholderData || undefined} className="grid gap-3 sm:grid-cols-2 sm:gap-4 lg:grid-cols-3">
      {markets.data.map((m) => (
        <li key={m.id} className="flex">
          <MarketCard market={m} />
        </li>
      ))}
    </ul>
  );
};

/** Search box, sort and filters; every choice lives in the page's address. */
const Controls = ({ filters, onChange }: { filters: TMarketFilters; onChange: (next: TMarketFilters) => void }) => {
  const id = useId();
  const facets = useMarketFacets();
  const [text, setText] = useState(filters.q ?? '');
  // The address is the source of truth: when its search changes from elsewhere (back, "clear"), the box follows.
  const [addressQ, setAddressQ] = useState(filters.q);
  if (addressQ !== filters.q) {
    setAddressQ(filters.q);
    if (text.trim() !== (filters.q ?? '')) setText(filters.q ?? '');
  }
  useEffect(() => {
    if (text.trim() === (filters.q ?? '')) return;
    const timer = setTimeout(() => onChange({ ...filters, q: text.trim() || undefined }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, filters, onChange]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    onChange({ ...filters, q: text.trim() || undefined });
  };
  const topics = facets.data?.topics ?? [];
  const tickers = facets.data?.tickers ?? [];
  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-end">
      <form role="search" onSubmit={onSubmit} className="flex-1">
        <label htmlFor={`${id}-q`} className="mb-1 block text-xs font-medium text-ink-muted">
          Search markets
        </label>
        <div className="relative">
          <SearchIcon aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-faint" />
          <Input id={`${id}-q`} type="search" name="q" placeholder="Search questions" value={text} onChange={(e) => setText(e.target.value)} className="pl-9" autoComplete="off" />
        </div>
      </form>
      <div className="grid grid-cols-3 gap-2 lg:flex lg:gap-3">
        <div>
          <label htmlFor={`${id}-sort`} className="mb-1 block text-xs font-medium text-ink-muted">
            Sort by
          </label>
          <Select id={`${id}-sort`} value={filters.sort ?? 'newest'} onChange={(e) => onChange({ ...filters, sort: e.target.value as TMarketSort })} className={SELECT_CLASS}>
            {MARKET_SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <label htmlFor={`${id}-topic`} className="mb-1 block text-xs font-medium text-ink-muted">
            Topic
          </label>
          <Select id={`${id}-topic`} value={filters.topic ?? ''} onChange={(e) => onChange({ ...filters, topic: e.target.value || undefined })} className={SELECT_CLASS}>
            <option value="">All</option>
            {[...new Set([...topics, ...(filters.topic ? [filters.topic] : [])])].map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <label htmlFor={`${id}-ticker`} className="mb-1 block text-xs font-medium text-ink-muted">
            Ticker
          </label>
          <Select id={`${id}-ticker`} value={filters.ticker ?? ''} onChange={(e) => onChange({ ...filters, ticker: e.target.value || undefined })} className={SELECT_CLASS}>
            <option value="">All</option>
            {[...new Set([...tickers, ...(filters.ticker ? [filters.ticker] : [])])].map((t) => (
              <option key={t} value={t}>
                ${t}
              </option>
            ))}
          </Select>
        </div>
      </div>
    </div>
  );
};

/** The markets page body: search, sort and filters over Active / Resolved tabs and a grid of cards. */
export const MarketsList = () => {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = parseMarketFilters(params);
  // Replace, not push: typing a search should not fill the history with one entry per word.
  const onChange = useCallback((next: TMarketFilters) => router.replace(`${pathname}${marketFiltersSearch(next)}`, { scroll: false }), [router, pathname]);
  return (
    <div className="flex flex-col gap-5">
      <Controls filters={filters} onChange={onChange} />
      <Tabs label="Market status" idPrefix="markets" value={filters.status} tabs={TABS} onChange={(status) => onChange({ ...filters, status })} />
      <div {...tabPanelProps('markets', filters.status)}>
        <MarketGrid filters={filters} onClear={() => onChange({ status: filters.status })} />
      </div>
    </div>
  );
};
