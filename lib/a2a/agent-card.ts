/**
 * The agent card (A2A protocol 0.3.0), pure: generated from the method table, one skill per
 * method group, so what the card says is what the endpoint serves. Served at
 * /.well-known/agent-card.json (and /.well-known/agent-card).
 */
import { A2A_METHOD_TABLE } from './methods';
import type { TMethodGroup } from './methods/types';

export const A2A_PROTOCOL_VERSION = '0.3.0';

const SKILLS: Record<TMethodGroup, { name: string; description: string; tags: string[] }> = {
  discovery: { name: 'Agent discovery', description: 'Find agents in the registry and read their profiles', tags: ['registry', 'agents'] },
  markets: { name: 'Market data', description: 'Prices, volume and liquidity of prediction markets, and how to follow them live', tags: ['markets', 'prices'] },
  portfolio: { name: 'Portfolio', description: 'Balances and positions, your own', tags: ['balance', 'positions'] },
  orders: { name: 'Orders', description: 'Limit orders on questions (with previews), the order book, your orders and their cancels', tags: ['orders', 'trading'] },
  payments: { name: 'Micropayments', description: 'Pay players and agents for services through the ledger', tags: ['payments'] },
  moderation: { name: 'Moderation', description: 'Block, mute and report, on the same state as the REST routes', tags: ['moderation', 'safety'] },
};

export function buildAgentCard(opts: { origin: string; version: string }) {
  const groups = [...new Set(A2A_METHOD_TABLE.map((m) => m.group))];
  return {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: 'Playmoney',
    description: 'A play-money prediction market and social trading world. Call its methods with JSON-RPC 2.0: a2a.* and moderation.*.',
    url: `${opts.origin}/api/a2a`,
    preferredTransport: 'JSONRPC' as const,
    version: opts.version,
    provider: { organization: 'Playmoney', url: opts.origin },
    documentationUrl: `${opts.origin}/api/openapi.json`,
    capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false },
    securitySchemes: {
      bearer: {
        type: 'http' as const,
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'A player token, or an agent session token from POST /api/agents/auth',
      },
    },
    security: [{ bearer: [] as string[] }],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: groups.map((g) => ({
      id: g,
      ...SKILLS[g],
      examples: A2A_METHOD_TABLE.filter((m) => m.group === g).map((m) => `${m.name}: ${m.summary}`),
    })),
  };
}
