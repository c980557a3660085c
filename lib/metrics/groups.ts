/**
 * Route groups of the published latency (/status): every endpoint falls in one, from the one
 * table below: first its id (the agent transports), then the strongest permission it requires
 * (lib/auth/permissions.ts), so a new endpoint is grouped by what it declares. Pure.
 */

export const ROUTE_GROUPS = ['trade', 'read', 'social', 'auth', 'admin', 'agent', 'other'] as const;
export type TRouteGroup = (typeof ROUTE_GROUPS)[number];
/** The SSE delivery delay has its own histogram, next to the groups. */
export const SSE_SERIES = 'sse';
export type TSeries = TRouteGroup | typeof SSE_SERIES;
export const SERIES: readonly TSeries[] = [...ROUTE_GROUPS, SSE_SERIES];

/** The table, first match wins: an endpoint id prefix, or a permission the endpoint requires. */
type TGroupRow = { idPrefix: string; group: TRouteGroup } | { requires: string; group: TRouteGroup };
const GROUP_TABLE: readonly TGroupRow[] = [
  { idPrefix: 'a2a.rpc', group: 'agent' },
  { idPrefix: 'a2a.methods', group: 'agent' },
  { idPrefix: 'mcp.', group: 'agent' },
  { idPrefix: 'agents.', group: 'auth' },
  { idPrefix: 'auth.', group: 'auth' },
  { requires: 'admin', group: 'admin' },
  { requires: 'moderate', group: 'admin' },
  { requires: 'trade', group: 'trade' },
  { requires: 'social', group: 'social' },
  { requires: 'account', group: 'auth' },
  { requires: 'read', group: 'read' },
];

/** What grouping reads of an endpoint declaration (lib/contracts/endpoint.ts). */
export type TGroupable = { id: string; requires?: readonly string[] };

/** The group of an endpoint ('other': the scheduler, benchmarks, anything the table misses). */
export function groupOf(endpoint: TGroupable): TRouteGroup {
  for (const row of GROUP_TABLE) {
    if ('idPrefix' in row ? endpoint.id.startsWith(row.idPrefix) : endpoint.requires?.includes(row.requires)) return row.group;
  }
  return 'other';
}

/** The published targets, in ms (null: none published for that percentile). */
export const LATENCY_TARGETS: Partial<Record<TSeries, { p50: number | null; p99: number | null }>> = {
  trade: { p50: 50, p99: 250 },
  sse: { p50: null, p99: 1000 },
};
