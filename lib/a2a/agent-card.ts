/**
 * The agent card, pure: one card read by A2A 0.3 and 1.0 clients alike, generated from the method
 * table (one skill per method group), so what the card says is what the endpoint serves. Served,
 * signed (card-signing.ts), at /.well-known/agent-card.json (and /.well-known/agent-card).
 *
 * - 0.3 reads `protocolVersion` 0.3.0, `url`, `preferredTransport`, `additionalInterfaces`,
 *   `security` and each scheme's `type`;
 * - 1.0 reads `supportedInterfaces` (JSON-RPC 1.0 and 0.3, both on POST /api/a2a: a 1.0 client
 *   picks 1.0), `securityRequirements` and each scheme's `httpAuthSecurityScheme`;
 * - both read `capabilities`: streaming and push notifications (1.0's methods), and the MCP
 *   endpoint as an extension (1.0 has no field of its own for it; an extension both versions'
 *   types carry and a client that does not know its URI ignores).
 */
import { A2A_METHOD_TABLE } from './methods';
import type { TMethodGroup } from './methods/types';

export const A2A_PROTOCOL_VERSION = '0.3.0';

/** The extension that names this service's MCP endpoint (params.url). */
export const MCP_EXTENSION_URI = 'https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#streamable-http';

/** A hint only: a key is opaque, a token a JWT. */
const BEARER_FORMAT = 'pm_ API key or JWT';
const BEARER_DESCRIPTION = 'An API key (pm_…), a player token, or an agent session token from POST /api/agents/auth';

const SKILLS: Record<TMethodGroup, { name: string; description: string; tags: string[] }> = {
  discovery: { name: 'Agent discovery', description: 'Find agents in the registry and read their profiles', tags: ['registry', 'agents'] },
  markets: { name: 'Market data', description: 'Prices, volume and liquidity of prediction markets, and how to follow them live', tags: ['markets', 'prices'] },
  portfolio: { name: 'Portfolio', description: 'Balances and positions, your own', tags: ['balance', 'positions'] },
  orders: { name: 'Orders', description: 'Limit orders on questions (with previews), the order book, your orders and their cancels', tags: ['orders', 'trading'] },
  trading: { name: 'Trading', description: 'Questions and tickers, buying and selling shares, opening and closing perp positions (with previews)', tags: ['trading', 'predictions', 'perpetuals'] },
  payments: { name: 'Micropayments', description: 'Pay players and agents for services through the ledger', tags: ['payments'] },
  moderation: { name: 'Moderation', description: 'Block, mute and report, on the same state as the REST routes', tags: ['moderation', 'safety'] },
};

export function buildAgentCard(opts: { origin: string; version: string }) {
  const groups = [...new Set(A2A_METHOD_TABLE.map((m) => m.group))];
  const endpoint = `${opts.origin}/api/a2a`;
  return {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: 'Playmoney',
    description: 'A play-money prediction market and social trading world. Call its methods with JSON-RPC 2.0: a2a.* and moderation.*.',
    url: endpoint,
    preferredTransport: 'JSONRPC' as const,
    additionalInterfaces: [{ url: endpoint, transport: 'JSONRPC' as const }],
    supportedInterfaces: [
      { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    version: opts.version,
    provider: { organization: 'Playmoney', url: opts.origin },
    documentationUrl: `${opts.origin}/api/openapi.json`,
    capabilities: {
      streaming: true,
      pushNotifications: true,
      stateTransitionHistory: false,
      extensions: [
        {
          uri: MCP_EXTENSION_URI,
          description: 'The same methods as Model Context Protocol tools (Streamable HTTP, the same bearer credentials)',
          required: false,
          params: { url: `${opts.origin}/api/mcp` },
        },
      ],
    },
    securitySchemes: {
      bearer: {
        type: 'http' as const,
        scheme: 'bearer',
        bearerFormat: BEARER_FORMAT,
        description: BEARER_DESCRIPTION,
        httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: BEARER_FORMAT, description: BEARER_DESCRIPTION },
      },
    },
    security: [{ bearer: [] as string[] }],
    securityRequirements: [{ schemes: { bearer: { list: [] as string[] } } }],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: groups.map((g) => ({
      id: g,
      ...SKILLS[g],
      examples: A2A_METHOD_TABLE.filter((m) => m.group === g).map((m) => `${m.name}: ${m.summary}`),
    })),
  };
}
