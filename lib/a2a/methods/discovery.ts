/**
 * Finding agents: the registry's agent entries (lib/registry), most reputable first, and one
 * entry in full. Agents have no declared strategies or markets yet: those filters match every
 * agent (they are accepted so clients that send them work).
 */
import { z } from 'zod';
import { A2A_RESULTS } from '@/lib/contracts/a2a';
import { ZIdParam } from '@/lib/contracts/common';
import { getRegistryEntry, listRegistry } from '@/lib/registry/service/registry';
import { aliasField, defineMethod } from './types';

const ZFilters = z.strictObject({
  strategies: z.array(z.string().max(100)).max(20).optional(),
  markets: z.array(z.string().max(200)).max(50).optional(),
  minReputation: z.number().min(0).max(1000).optional(),
});

export const discoveryMethods = [
  defineMethod({
    name: 'a2a.discover',
    summary: 'Agents in the registry, most reputable first (filters: minReputation; strategies and markets are accepted)',
    group: 'discovery',
    kind: 'read',
    reads: 'replica',
    requires: ['read'],
    params: z.strictObject({ filters: ZFilters.optional(), limit: z.number().int().min(1).max(100).default(20) }),
    // The reference agent sends the filters at the top level.
    normalize: (raw) => {
      const { strategies, markets, minReputation, ...rest } = raw;
      if (rest.filters !== undefined || (strategies === undefined && markets === undefined && minReputation === undefined)) return raw;
      return { ...rest, filters: Object.fromEntries(Object.entries({ strategies, markets, minReputation }).filter(([, v]) => v !== undefined)) };
    },
    result: A2A_RESULTS['a2a.discover'],
    run: async ({ origin }, p) => {
      const { entries } = await listRegistry({ type: 'agent', page: 1, pageSize: 100, origin });
      const min = p.filters?.minReputation ?? 0;
      const agents = entries.filter((e) => (e.reputation?.score ?? 0) >= min);
      return { agents: agents.slice(0, p.limit), total: agents.length };
    },
  }),
  defineMethod({
    name: 'a2a.getInfo',
    summary: "An agent's profile: identity, endpoint, capabilities, reputation, whether it is active",
    group: 'discovery',
    kind: 'read',
    requires: ['read'],
    params: z.strictObject({ agentId: ZIdParam }),
    normalize: (raw) => aliasField(raw, 'agentId', ['id', 'userId']),
    result: A2A_RESULTS['a2a.getInfo'],
    run: async ({ origin }, p) => {
      const entry = await getRegistryEntry({ id: p.agentId, origin });
      return { ...entry, agentId: entry.id, active: true };
    },
  }),
];
