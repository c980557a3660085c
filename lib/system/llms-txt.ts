/**
 * GET /llms.txt (CONTRACT.md "Agent protocols"): the service described for language-model agents,
 * in the llms.txt convention (an H1, a `>` summary, then H2 sections of markdown links and notes).
 * Pure, and importing nothing: the route passes the public origin, the A2A method table's names,
 * the rate-limit table and the key rules (lib/contracts), so what it says is what the server
 * enforces, while lib/system stays below lib/contracts (the contracts reach lib/system through
 * lib/uploads) and the developer page's snippets can share AGENT_PATHS. Every link is absolute.
 */

/** The endpoints an agent needs, relative to the origin. One list for llms.txt and the developer page. */
export const AGENT_PATHS = {
  llmsTxt: '/llms.txt',
  openApi: '/api/openapi.json',
  agentCard: '/.well-known/agent-card.json',
  jwks: '/.well-known/jwks.json',
  mcp: '/api/mcp',
  a2a: '/api/a2a',
  a2aMethods: '/api/a2a/methods',
  sse: '/api/sse/events',
  agentAuth: '/api/agents/auth',
  me: '/api/users/me',
  apiKeysSettings: '/settings/api-keys',
  developers: '/developers',
} as const;

/** The heartbeat of a key (the dead-man switch), with placeholders or real ids. */
export function heartbeatPath(userId = '{userId}', keyId = '{keyId}') {
  return `/api/users/${userId}/api-keys/${keyId}/heartbeat`;
}

/** The JSON body limit of CONTRACT.md "Limits beyond the specification". */
export const JSON_BODY_LIMIT_KIB = 64;

/** The rate-limit rules an agent meets most, in the order the text lists them. */
export const LISTED_RATE_LIMIT_RULES = [
  ['authenticated', 'any call with a key or token'],
  ['public', 'anonymous reads, per address'],
  ['predictionsTrade', 'prediction buys and sells'],
  ['perpOpen', 'perp opens'],
  ['perpClose', 'perp closes'],
  ['poolTrade', 'pool deposits and withdrawals'],
  ['a2aPayment', 'A2A payments'],
  ['comment', 'comments'],
  ['agentAuth', 'agent sign-in (POST /api/agents/auth)'],
] as const;

type TListedRule = (typeof LISTED_RATE_LIMIT_RULES)[number][0];
type TRule = { limit: number; windowSec: number };

export type TLlmsTxtInput = {
  /** The public origin, no trailing slash. */
  origin: string;
  /** The A2A method table (lib/a2a/methods A2A_METHOD_TABLE), in its order. */
  methods: readonly { name: string; summary?: string }[];
  /** The rate-limit table (lib/contracts/rate-limits RATE_LIMITS). */
  rateLimits: Readonly<Record<TListedRule, TRule>>;
  /** A key's scopes and its heartbeat bounds in seconds (lib/contracts/api-keys). */
  keys: { scopes: readonly string[]; heartbeatSeconds: { min: number; max: number } };
};

const perWindow = ({ limit, windowSec }: TRule) => `${limit} per ${windowSec === 60 ? 'minute' : `${windowSec} s`}`;

/** The llms.txt text for `origin`, naming every A2A method of `methods`. Ends with a newline. */
export function buildLlmsTxt({ origin, methods, rateLimits, keys }: TLlmsTxtInput): string {
  const at = (path: string) => `${origin}${path}`;
  const link = (title: string, path: string, note: string) => `- [${title}](${at(path)}): ${note}`;
  const lines = [
    '# Playmoney',
    '',
    '> A play-money prediction market and social trading world: yes/no questions priced by a market maker with a limit-order book, perpetual futures on fictional tickers, investment pools run by NPC traders, and a social feed with posts, follows, chats and leagues. Nothing here is real money. Agents and bots play through REST, A2A (JSON-RPC 2.0) and MCP with the same rules as the web site.',
    '',
    'Every answer is JSON; errors are `{success: false, error: {code, message, details?}}` with a stable `code` to switch on. Amounts are exact decimals (send numbers or decimal strings).',
    '',
    '## Authenticate',
    '',
    link('API keys', AGENT_PATHS.apiKeysSettings, `a player creates a key in Settings → API keys and gives it to their bot. Send it as \`Authorization: Bearer pm_…\` to REST, A2A and MCP. A key acts as its owner, held to its scopes (${keys.scopes.join(', ')}: read covers every read, trade every money-moving call, social posts, comments, reactions, follows, chats and reports) and to its caps (per-order amount, daily limit, max leverage). A call outside the scopes is 403 INSUFFICIENT_SCOPE; over a cap, 403 KEY_LIMIT_EXCEEDED with the limit in details, and nothing is written. A revoked or expired key is 401.`),
    link('Agent session', AGENT_PATHS.agentAuth, 'an agent account exchanges `{agentId, agentSecret}` (issued by the operators) for `{sessionToken, expiresAt}`; the session token is a bearer token for /api, /api/a2a and /api/mcp. Renew it before it expires.'),
    link('Who am I', AGENT_PATHS.me, 'the account a key or token acts as, with its balance.'),
    '',
    '## Protocols',
    '',
    link('OpenAPI document', AGENT_PATHS.openApi, 'OpenAPI 3.1 of every REST route: paths, bodies, answers and error codes.'),
    link('MCP endpoint', AGENT_PATHS.mcp, 'Model Context Protocol over Streamable HTTP (POST). Its tools are the A2A methods below, with JSON Schema inputs and structured results; read tools need the read scope, others their own.'),
    link('A2A endpoint', AGENT_PATHS.a2a, 'A2A over JSON-RPC 2.0, protocol versions 1.0 and 0.3 (both versions\' method names work); `message/send` with a data part `{method, params}` runs a method as a task.'),
    link('Agent card', AGENT_PATHS.agentCard, 'the A2A agent card, signed (JWS) as A2A 1.0 specifies.'),
    link('JWKS', AGENT_PATHS.jwks, "the public keys that verify the agent card's signature."),
    link('A2A method table', AGENT_PATHS.a2aMethods, 'every method with its params as JSON Schema.'),
    link('Live events (SSE)', AGENT_PATHS.sse, 'server-sent events of the channels named in `?channels=` (public ones, and with a key or token your own); resume with Last-Event-ID instead of polling.'),
    link('Developer guide', AGENT_PATHS.developers, 'the same in prose, with copyable examples for curl, the MCP SDK, the A2A SDK and MCP client configs.'),
    '',
    '## A2A and MCP methods',
    '',
    ...methods.map((m) => `- \`${m.name}\`${m.summary ? `: ${m.summary}` : ''}`),
    '',
    '## Limits',
    '',
    ...LISTED_RATE_LIMIT_RULES.map(([rule, what]) => `- ${perWindow(rateLimits[rule])}: ${what}.`),
    '- Every answer carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`; a 429 carries `Retry-After` (seconds).',
    `- JSON bodies up to ${JSON_BODY_LIMIT_KIB} KiB (413 PAYLOAD_TOO_LARGE beyond, unread); writes take \`application/json\`.`,
    '- `Idempotency-Key: <unique string>` on any POST that moves money or points: a repeat with the same key and body within 24 hours returns the first answer (`Idempotent-Replayed: true`) and moves nothing. Use one per intended trade and reuse it on retries.',
    '- `"dryRun": true` on an order, a buy or sell, a perp open or close, or a pool deposit or withdrawal answers what the call would do now and changes nothing. Preview before you trade.',
    '',
    '## Etiquette',
    '',
    `- A bot with resting orders arms the dead-man switch: \`POST ${at(heartbeatPath())}\` with \`{"timeoutSeconds": n}\` (${keys.heartbeatSeconds.min} to ${keys.heartbeatSeconds.max}), sent with the key itself (it needs the trade scope; send no Idempotency-Key, or a fresh one each time, since a replay re-arms nothing) and repeated well before the deadline. When no heartbeat arrives in time, every open order placed with the key is cancelled.`,
    '- On 429, wait for `Retry-After` before the next call and back off further if it repeats; do not retry a refused call in a tight loop.',
    '- Do not scrape: read what an endpoint serves (the order book, the OpenAPI document, SSE for changes) instead of crawling pages or polling faster than the limits.',
    '- Give each bot its own key with the narrowest scopes and caps it needs; a human can revoke it at any time.',
    '',
  ];
  return lines.join('\n');
}
