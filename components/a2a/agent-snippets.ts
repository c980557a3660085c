/**
 * The developer page's copyable examples for API keys (issue 33): curl, the official MCP SDK, the
 * official A2A SDK 1.x, and MCP client configs, each a function of the site's origin so what a
 * reader copies points at this server. The paths come from lib/system/llms-txt (AGENT_PATHS), the
 * list /llms.txt also reads, so the page and the file cannot name different endpoints. The key
 * itself is never in a snippet: they read it from the PLAYMONEY_API_KEY environment variable.
 */
import { AGENT_PATHS, heartbeatPath } from '@/lib/system/llms-txt';

/**
 * A snippet's code for this origin; `marketId` (the developer page's example market, when one is
 * picked) replaces the `<marketId>` placeholder so a copied example runs as is.
 */
export type TAgentSnippet = { id: string; title: string; language: 'bash' | 'ts' | 'json'; description: string; code: (origin: string, marketId?: string) => string };

/** The placeholder a snippet shows until a market is picked. */
export const MARKET_PLACEHOLDER = '<marketId>';

/** The environment variable every snippet reads the key from. */
export const KEY_ENV = 'PLAYMONEY_API_KEY';

const curl = (origin: string, marketId: string = MARKET_PLACEHOLDER) => `export ${KEY_ENV}="pm_…"   # the secret shown once when you created the key

# Who the key acts as (any scope)
curl -s ${origin}${AGENT_PATHS.me} \\
  -H "Authorization: Bearer $${KEY_ENV}"

# Preview a buy: dryRun answers what would happen and moves nothing
curl -s -X POST ${origin}/api/markets/predictions/${marketId}/buy \\
  -H "Authorization: Bearer $${KEY_ENV}" \\
  -H "Content-Type: application/json" \\
  -d '{"outcome": "YES", "amount": 10, "dryRun": true}'

# Place it once: the same Idempotency-Key on a retry never buys twice
curl -s -X POST ${origin}/api/markets/predictions/${marketId}/buy \\
  -H "Authorization: Bearer $${KEY_ENV}" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: $(uuidgen)" \\
  -d '{"outcome": "YES", "amount": 10}'

# Dead-man switch (a trade-scope key): without a heartbeat for 60 s, the key's open orders are cancelled
curl -s -X POST ${origin}${heartbeatPath('<userId>', '<keyId>')} \\
  -H "Authorization: Bearer $${KEY_ENV}" \\
  -H "Content-Type: application/json" \\
  -d '{"timeoutSeconds": 60}'`;

const mcpSdk = (origin: string, marketId: string = MARKET_PLACEHOLDER) => `// npm install @modelcontextprotocol/sdk
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const transport = new StreamableHTTPClientTransport(new URL('${origin}${AGENT_PATHS.mcp}'), {
  requestInit: { headers: { Authorization: \`Bearer \${process.env.${KEY_ENV}}\` } },
});
const client = new Client({ name: 'my-bot', version: '1.0.0' });
await client.connect(transport);

// The tools are the A2A methods (a2a.*, moderation.*), with JSON Schema inputs.
const { tools } = await client.listTools();
console.log(tools.map((t) => t.name));

const prices = await client.callTool({ name: 'a2a.getMarketPrices', arguments: { marketId: '${marketId}' } });
console.log(prices.structuredContent ?? prices.content);

// A trading tool (a trade-scope key): preview a 10-point YES buy; dryRun: true moves nothing
const buy = await client.callTool({ name: 'a2a.buyShares', arguments: { marketId: '${marketId}', outcome: 'YES', amount: 10, dryRun: true } });
console.log(buy.structuredContent ?? buy.content);

await client.close();`;

const a2aSdk = (origin: string, marketId: string = MARKET_PLACEHOLDER) => `// npm install @a2a-js/sdk@^1
import { Role } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';

// Every request carries the key.
const fetchWithKey: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('Authorization', \`Bearer \${process.env.${KEY_ENV}}\`);
  return fetch(input, { ...init, headers });
};

const factory = new ClientFactory(
  ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWithKey })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetchWithKey }),
  }),
);
// Reads ${origin}${AGENT_PATHS.agentCard} and picks its JSON-RPC interface (${AGENT_PATHS.a2a}).
const client = await factory.createFromUrl('${origin}');

// A data part {method, params} runs one method as a task.
const task = await client.sendMessage({
  tenant: '',
  configuration: undefined,
  metadata: undefined,
  message: {
    messageId: crypto.randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [
      {
        content: { $case: 'data', value: { method: 'a2a.getMarketPrices', params: { marketId: '${marketId}' } } },
        metadata: undefined,
        filename: '',
        mediaType: '',
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  },
});
console.log(JSON.stringify(task, null, 2));`;

const claudeDesktop = (origin: string) =>
  JSON.stringify(
    {
      mcpServers: {
        playmoney: {
          command: 'npx',
          args: ['-y', 'mcp-remote', `${origin}${AGENT_PATHS.mcp}`, '--header', 'Authorization:${PLAYMONEY_AUTH}'],
          env: { PLAYMONEY_AUTH: 'Bearer pm_…' },
        },
      },
    },
    null,
    2,
  );

const httpMcpClient = (origin: string) =>
  JSON.stringify({ mcpServers: { playmoney: { url: `${origin}${AGENT_PATHS.mcp}`, headers: { Authorization: 'Bearer pm_…' } } } }, null, 2);

/** The examples, in the order the page shows them. */
export const AGENT_SNIPPETS: readonly TAgentSnippet[] = [
  {
    id: 'curl',
    title: 'curl',
    language: 'bash',
    description: 'REST with the key as a bearer token: who you are, a dry-run buy, the same buy placed once, and a heartbeat.',
    code: curl,
  },
  {
    id: 'mcp-sdk',
    title: 'TypeScript, MCP SDK',
    language: 'ts',
    description: 'The official Model Context Protocol SDK over Streamable HTTP: list the tools, read a price, preview a buy.',
    code: mcpSdk,
  },
  {
    id: 'a2a-sdk',
    title: 'TypeScript, A2A SDK 1.x',
    language: 'ts',
    description: 'The official A2A SDK: it resolves the agent card and sends a message whose data part names the method.',
    code: a2aSdk,
  },
  {
    id: 'claude-desktop',
    title: 'Claude Desktop config',
    language: 'json',
    description: 'claude_desktop_config.json: the mcp-remote bridge connects Claude Desktop to the MCP endpoint with your key (keep the space out of args, as here).',
    code: claudeDesktop,
  },
  {
    id: 'mcp-client',
    title: 'MCP client config (URL and headers)',
    language: 'json',
    description: 'For clients that speak Streamable HTTP themselves and take a server URL with headers.',
    code: httpMcpClient,
  },
];
