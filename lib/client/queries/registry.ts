/**
 * The registry in the browser: one page of players, NPC actors, agents and apps, filtered by type
 * and a search, most reputable first. queryOptions factories own every query key.
 * I/O: the typed client only.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { REGISTRY_TYPES, registryList } from '@/lib/contracts/registry';

export type TRegistryPage = TEndpointResponse<typeof registryList>;
export type TRegistryEntry = TRegistryPage['entries'][number];
export type TRegistryType = (typeof REGISTRY_TYPES)[number];
/** The type filter: one type, or every type. */
export type TRegistryFilter = TRegistryType | 'all';

export const REGISTRY_PAGE_SIZE = 25;

export const REGISTRY_FILTERS: readonly { value: TRegistryFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'user', label: 'Players' },
  { value: 'actor', label: 'NPC actors' },
  { value: 'agent', label: 'Agents' },
  { value: 'app', label: 'Apps' },
];

/** The filter an address names (`?type=agent`); anything else is every type. */
export function registryFilterOf(raw: unknown): TRegistryFilter {
  return REGISTRY_FILTERS.find((f) => f.value === raw)?.value ?? 'all';
}

/** A type as its badge reads. */
export const REGISTRY_TYPE_LABELS: Record<TRegistryType, string> = { user: 'Player', actor: 'NPC actor', agent: 'Agent', app: 'App' };

export type TRegistryQuery = { type: TRegistryFilter; search: string; page: number };

export const registryKeys = {
  all: ['registry'] as const,
  lists: () => [...registryKeys.all, 'list'] as const,
  list: (q: TRegistryQuery) => [...registryKeys.lists(), q.type, q.search.toLowerCase(), q.page] as const,
};

export function getRegistryQueryOptions(q: TRegistryQuery) {
  return queryOptions({
    queryKey: registryKeys.list(q),
    queryFn: () =>
      api(registryList, {
        query: { type: q.type === 'all' ? undefined : q.type, search: q.search || undefined, page: q.page, pageSize: REGISTRY_PAGE_SIZE },
      }),
  });
}

/** One page of the registry; the page on screen stays while another filter or page loads. */
export function useRegistry(q: TRegistryQuery) {
  return useQuery({ ...getRegistryQueryOptions(q), placeholderData: keepPreviousData });
}

/** Whether an entry's URL is a page of this site (a profile) rather than an app's own site. Pure. */
export function isLocalUrl(url: string) {
  return url.startsWith('/') && !url.startsWith('//');
}
