'use client';

import { useId, useState } from 'react';
import { Pager } from '@/components/moderation/pager';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { SearchIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { REGISTRY_FILTERS, REGISTRY_PAGE_SIZE, useRegistry, type TRegistryFilter } from '@/lib/client/queries/registry';
import { useDebouncedValue } from '@/lib/client/queries/users';
import { RegistryIcon } from '@/components/ui/icons';
import { RegistryEntry } from './registry-entry';

const SEARCH_DELAY_MS = 300;

const ListSkeleton = () => (
  <div role="status" aria-label="Loading the registry" className="flex flex-col gap-3">
    {[0, 1, 2, 3].map((i) => (
      <Skeleton key={i} className="h-28 w-full rounded-2xl" />
    ))}
  </div>
);

/**
 * The registry: every player, NPC actor, agent and app, most reputable first, narrowed by type
 * and a search (debounced while typing), in pages. A new filter or search starts at page one.
 */
export const RegistryBrowser = ({ initialType = 'all' }: { initialType?: TRegistryFilter }) => {
  const searchId = useId();
  const [type, setType] = useState<TRegistryFilter>(initialType);
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  // The page belongs to the filter it was picked under: another type or search starts at one.
  const filterKey = `${type}\u0000${search}`;
  const [paged, setPaged] = useState({ page: 1, key: filterKey });
  const page = paged.key === filterKey ? paged.page : 1;
  const registry = useRegistry({ type, search, page });
  const data = registry.data;
  const typeLabel = REGISTRY_FILTERS.find((f) => f.value === type)!.label;

  let body;
  if (registry.isPending) body = <ListSkeleton />;
  else if (registry.isError && !data) {
    body = <ErrorState title="The registry did not load" message={describeError(registry.error)} onRetry={() => registry.refetch()} isRetrying={registry.isFetching} />;
  } else if (!data || data.entries.length === 0) {
    body = (
      <EmptyState
        icon={<RegistryIcon />}
        headingLevel={2}
        title={search ? `Nothing matches “${search}”` : `No ${type === 'all' ? 'entries' : typeLabel.toLowerCase()} yet`}
        description={search ? 'Try another name, or another type.' : 'Players, NPC actors, agents and apps are listed here as they join.'}
      />
    );
  } else {
    body = (
      <div className="flex flex-col gap-4">
        <ul
          aria-label={search ? `Registry entries matching ${search}` : 'Registry entries'}
          aria-busy={registry.isPlaceholderData || undefined}
          className="flex flex-col gap-3"
        >
          {data.entries.map((e) => (
            <li key={`${e.type}:${e.id}`}>
              <RegistryEntry entry={e} />
            </li>
          ))}
        </ul>
        <Pager
          label="Registry pages"
          pagination={{ limit: data.pagination.pageSize, offset: (data.pagination.page - 1) * data.pagination.pageSize, total: data.pagination.total }}
          shown={data.entries.length}
          onChange={(offset) => setPaged({ page: Math.floor(offset / REGISTRY_PAGE_SIZE) + 1, key: filterKey })}
          isBusy={registry.isPlaceholderData}
        />
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
        <div className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
          <SegmentedControl label="Type" value={type} options={REGISTRY_FILTERS} onChange={setType} size="sm" className="w-max min-w-full whitespace-nowrap [&>button]:px-2.5" />
        </div>
        <div role="search" className="relative flex-1">
          <label htmlFor={searchId} className="sr-only">
            Search the registry
          </label>
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-ink-faint">
            <SearchIcon className="size-4" />
          </span>
          <Input
            id={searchId}
            type="search"
            placeholder="Search by name or username…"
            autoComplete="off"
            maxLength={100}
            className="pl-9"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
      </div>
      {data && !registry.isPending && (
        <p aria-live="polite" className="text-xs text-ink-muted">
          {data.pagination.total === 1 ? '1 entry' : `${data.pagination.total.toLocaleString('en-US')} entries`}
          {type !== 'all' ? ` · ${typeLabel}` : ''}
          {search ? ` matching “${search}”` : ''}
        </p>
      )}
      {body}
    </div>
  );
};
