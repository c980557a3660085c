/**
 * A2A: the agent card, the method list, and POST /api/a2a (JSON-RPC 2.0, described by the card),
 * whose answers are typed here: each method's result (A2A_RESULTS), the tasks and messages of
 * message/send and tasks/get, and JSON-RPC errors.
 */
import { z } from 'zod';
import { ZDecimalString, ZTimestamp } from './common';
import { defineEndpoint } from './endpoint';
import { marketsPositions, predictionsBuy, predictionsList, predictionsSell, ZMarket, ZPredictionPosition } from './markets';
import { perpsClose, perpsList, perpsOpen, ZPerpPosition, ZPerpTicker } from './perps';
import { orderCancel, ordersCancelMany, ordersList, perpOrderPlace, predictionOrderBook, predictionOrderPlace } from './orders';
import { moderationBlocksList, moderationMutesList, moderationReportCreate, usersBlock, usersBlockStatus, usersMute, usersMuteStatus } from './moderation';
import { ZRegistryEntry } from './registry';
import { usersBalance } from './users';
import { usersPnlHistory } from './track-record';

const ZAgentInterface = z.object({ url: z.string(), protocolBinding: z.string(), protocolVersion: z.string() });

export const ZAgentCard = z.object({
  protocolVersion: z.string().describe('A2A 0.3: 0.3.0'),
  name: z.string(),
  description: z.string(),
  url: z.string().describe('the JSON-RPC endpoint, absolute (A2A 0.3)'),
  preferredTransport: z.literal('JSONRPC'),
  additionalInterfaces: z.array(z.object({ url: z.string(), transport: z.literal('JSONRPC') })).describe('A2A 0.3'),
  supportedInterfaces: z.array(ZAgentInterface).describe('A2A 1.0: JSON-RPC 1.0 and 0.3, both on POST /api/a2a'),
  version: z.string(),
  provider: z.object({ organization: z.string(), url: z.string() }),
  documentationUrl: z.string(),
  capabilities: z.object({
    streaming: z.boolean(),
    pushNotifications: z.boolean(),
    stateTransitionHistory: z.boolean(),
    extensions: z
      .array(z.object({ uri: z.string(), description: z.string(), required: z.boolean(), params: z.object({ url: z.string() }) }))
      .describe('the MCP endpoint (params.url)'),
  }),
  securitySchemes: z.record(
    z.string(),
    z.object({
      type: z.literal('http'),
      scheme: z.string(),
      bearerFormat: z.string(),
      description: z.string(),
      httpAuthSecurityScheme: z.object({ scheme: z.string(), bearerFormat: z.string(), description: z.string() }).describe('the same scheme as A2A 1.0 writes it'),
    }),
  ),
  security: z.array(z.record(z.string(), z.array(z.string()))).describe('A2A 0.3'),
  securityRequirements: z.array(z.object({ schemes: z.record(z.string(), z.object({ list: z.array(z.string()) })) })).describe('A2A 1.0'),
  defaultInputModes: z.array(z.string()),
  defaultOutputModes: z.array(z.string()),
  skills: z.array(z.object({ id: z.string(), name: z.string(), description: z.string(), tags: z.array(z.string()), examples: z.array(z.string()) })),
  signatures: z
    .array(z.object({ protected: z.string(), signature: z.string() }))
    .describe('A2A 1.0: JWS (payload detached: the canonical card) verified with GET /.well-known/jwks.json'),
});

const card = (path: string, id: string) =>
  defineEndpoint({
    id,
    method: 'GET',
    path,
    summary: 'The A2A agent card (protocols 1.0 and 0.3, signed): the JSON-RPC endpoint, its security, its capabilities and one skill per method group',
    tag: 'a2a',
    auth: 'public',
    requires: ['read'],
    envelope: false,
    response: ZAgentCard,
  });

export const a2aAgentCard = card('/.well-known/agent-card.json', 'a2a.agentCard');
export const a2aAgentCardAlias = card('/.well-known/agent-card', 'a2a.agentCardAlias');

/** The public keys the agent card's signatures verify with. */
export const a2aJwks = defineEndpoint({
  id: 'a2a.jwks',
  method: 'GET',
  path: '/.well-known/jwks.json',
  summary: "The JSON Web Key Set of the agent card's signatures (A2A 1.0 card signing)",
  tag: 'a2a',
  auth: 'public',
  requires: ['read'],
  envelope: false,
  response: z.object({
    keys: z.array(
      z.object({ kty: z.string(), crv: z.string(), x: z.string(), y: z.string().optional(), kid: z.string(), alg: z.string(), use: z.literal('sig') }),
    ),
  }),
});

const ZRpcId = z.union([z.string(), z.number(), z.null()]);

/** A REST answer without its `success` flag: what an A2A method that mirrors a route answers. */
const withoutSuccess = (e: { response: z.ZodType }) => (e.response as z.ZodObject).omit({ success: true });

/**
 * Babylon's agents (the reference client: lalalune/babylon src/types/a2a-responses.ts) read some
 * of these answers by their own names; under CONTRACT.md "Compatibility" an answer carries those
 * names beside ours with the same value.
 */
const ZBalanceResult = withoutSuccess(usersBalance).extend({
  reputationPoints: z.number().int().describe("the account's reputation points (Babylon's agents read it here)"),
});
const ZPositionsResult = withoutSuccess(marketsPositions).extend({
  marketPositions: z.array(ZPredictionPosition).describe('the same as predictions (Babylon\'s name)'),
  perpPositions: z.array(ZPerpPosition).describe('the same as perps (Babylon\'s name)'),
});
const ZBlockResult = withoutSuccess(usersBlock);
const ZMuteResult = withoutSuccess(usersMute);
const ZReportResult = withoutSuccess(moderationReportCreate);

/**
 * What each A2A method answers, by method name: lib/a2a/methods declares each method's `result`
 * as this (test/openapi/a2a-results.test.ts holds the method table to it), the transport holds
 * every result to it in tests, and POST /api/a2a's document lists them as the `result` it may carry.
 */
export const A2A_RESULTS = {
  'a2a.discover': z.object({ agents: z.array(ZRegistryEntry), total: z.number().int() }),
  'a2a.getInfo': ZRegistryEntry.extend({ agentId: z.string(), active: z.boolean() }),
  'a2a.getMarketData': z.object({
    marketId: z.string(),
    question: z.string(),
    outcomes: z.array(z.enum(['YES', 'NO'])),
    prices: z
      .tuple([z.number(), z.number()])
      .describe("[YES price, NO price], in the order of outcomes (Babylon's shape: its agents read prices[0])"),
    pricesByOutcome: z.object({ YES: z.number(), NO: z.number() }).describe('the same prices by outcome'),
    volume: z.number(),
    volume24h: z.number(),
    liquidity: z.number(),
    resolveAt: ZTimestamp,
    resolved: z.boolean(),
    resolvedOutcome: z.enum(['YES', 'NO']).nullable(),
  }),
  'a2a.getMarketPrices': z.object({
    marketId: z.string(),
    prices: z.array(z.object({ outcome: z.enum(['YES', 'NO']), price: z.number() })),
    timestamp: ZTimestamp,
  }),
  'a2a.subscribeMarket': z.object({
    subscribed: z.boolean(),
    marketId: z.string(),
    stream: z.object({ url: z.string(), channel: z.literal('markets'), event: z.literal('market_update'), filter: z.object({ marketId: z.string() }) }),
  }),
  'a2a.getBalance': ZBalanceResult,
  'a2a.getPositions': ZPositionsResult,
  'a2a.getPnlHistory': withoutSuccess(usersPnlHistory),
  'a2a.getUserWallet': z.object({ userId: z.string(), balance: ZBalanceResult, positions: ZPositionsResult }),
  'a2a.paymentRequest': z.object({
    requestId: z.string(),
    amount: ZDecimalString,
    to: z.string(),
    service: z.string(),
    status: z.literal('pending'),
    expiresAt: ZTimestamp,
  }),
  'a2a.paymentReceipt': z.object({
    verified: z.boolean(),
    message: z.string(),
    requestId: z.string(),
    status: z.enum(['pending', 'paid']),
    amount: ZDecimalString,
    transactionId: z.string().nullable(),
  }),
  // Orders (issue 32): the REST answers without `success`.
  'a2a.placeOrder': withoutSuccess(predictionOrderPlace),
  'a2a.getOrderBook': withoutSuccess(predictionOrderBook),
  'a2a.getOrders': withoutSuccess(ordersList),
  'a2a.cancelOrder': withoutSuccess(orderCancel),
  'a2a.cancelOrders': withoutSuccess(ordersCancelMany),
  'a2a.placePerpOrder': withoutSuccess(perpOrderPlace),
  // Trading (issue 33): the REST answers without `success`, and the names Babylon's agents read
  // (its handlers' answers: lalalune/babylon src/lib/a2a/handlers/trading.ts).
  'a2a.getPredictions': withoutSuccess(predictionsList).extend({
    predictions: z
      .array(ZMarket.extend({ resolved: z.boolean().describe('status is resolved') }))
      .describe("the same questions, as Babylon's agents read them (id, question, yesShares, noShares, liquidity, endDate, resolved)"),
  }),
  'a2a.getPerpetuals': withoutSuccess(perpsList).extend({ perpetuals: z.array(ZPerpTicker).describe("the same tickers (Babylon's name)") }),
  'a2a.buyShares': withoutSuccess(predictionsBuy).extend({ cost: z.number().describe('the amount spent, fees included (Babylon\'s name)') }),
  'a2a.sellShares': withoutSuccess(predictionsSell),
  'a2a.openPosition': withoutSuccess(perpsOpen).extend({
    positionId: z.string().describe("position.id (Babylon's name)"),
    entryPrice: z.number().describe("position.entryPrice (Babylon's name)"),
  }),
  'a2a.closePosition': withoutSuccess(perpsClose).extend({ pnl: z.number().describe("the same as realizedPnL (Babylon's name)") }),
  'moderation.blockUser': ZBlockResult,
  'moderation.unblockUser': ZBlockResult,
  'moderation.muteUser': ZMuteResult,
  'moderation.unmuteUser': ZMuteResult,
  'moderation.reportUser': ZReportResult,
  'moderation.reportPost': ZReportResult,
  'moderation.getBlocks': withoutSuccess(moderationBlocksList),
  'moderation.getMutes': withoutSuccess(moderationMutesList),
  'moderation.checkBlockStatus': withoutSuccess(usersBlockStatus),
  'moderation.checkMuteStatus': withoutSuccess(usersMuteStatus),
} as const;

/** Any method's result (each distinct schema once). */
const ZMethodResult = z.union([...new Set(Object.entries(A2A_RESULTS).map(([, schema]) => schema))] as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]);

/** The data of a JSON-RPC error, when it has some. */
const ZRpcErrorData = z.union([
  z
    .object({ code: z.string(), status: z.number().int(), details: z.record(z.string(), z.unknown()).optional() })
    .describe('-32000, -32602, -32001, -32002: the REST error code, its HTTP status and its details'),
  z.object({ requestId: z.string() }).describe('-32603: the request id to quote'),
]);

const ZRpcError = z.object({
  code: z
    .number()
    .int()
    .describe('-32700 parse, -32600 invalid request, -32601 unknown method, -32602 invalid params, -32603 internal, -32000 a domain failure, -32001 to -32007 the A2A protocol\'s own'),
  message: z.string(),
  data: ZRpcErrorData.optional(),
});

const ZTextPart = z.object({ kind: z.literal('text'), text: z.string() });

/**
 * An A2A task (message/send, tasks/get; lib/a2a/service/tasks.ts): finished at once, completed
 * with the call's result as its artifact (or, past what a stored task keeps, a text part saying
 * so), or failed with the call's JSON-RPC error.
 */
const ZA2aTask = z.object({
  kind: z.literal('task'),
  id: z.string(),
  contextId: z.string(),
  status: z.union([
    z.object({ state: z.literal('completed'), timestamp: ZTimestamp }),
    z.object({
      state: z.literal('failed'),
      timestamp: ZTimestamp,
      message: z.object({
        kind: z.literal('message'),
        role: z.literal('agent'),
        messageId: z.string(),
        taskId: z.string(),
        contextId: z.string(),
        parts: z.array(z.object({ kind: z.literal('data'), data: z.object({ error: ZRpcError }) })),
      }),
    }),
  ]),
  artifacts: z.array(
    z.object({
      artifactId: z.string(),
      name: z.string().describe('the method'),
      parts: z.array(z.union([z.object({ kind: z.literal('data'), data: ZMethodResult }), ZTextPart])),
      metadata: z.object({ omitted: z.literal(true), bytes: z.number().int() }).optional().describe('the result was too large to keep'),
    }),
  ),
  metadata: z.object({ method: z.string() }),
});

/** message/send's answer to a message that names no method: the methods it can run. */
const ZMethodsMessage = z.object({
  kind: z.literal('message'),
  role: z.literal('agent'),
  messageId: z.string(),
  contextId: z.string().optional(),
  parts: z.array(
    z.union([ZTextPart, z.object({ kind: z.literal('data'), data: z.object({ methods: z.array(z.object({ name: z.string(), summary: z.string() })) }) })]),
  ),
});

/** One JSON-RPC 2.0 answer: a result, or an error (a domain failure's data holds the REST code and status). */
export const ZRpcAnswer = z.union([
  z.object({
    jsonrpc: z.literal('2.0'),
    id: ZRpcId.describe('the id of the request answered'),
    result: z
      .union([ZMethodResult, ZA2aTask, ZMethodsMessage])
      .describe('the method\'s result (GET /api/a2a/methods lists the methods), or the A2A task or message of message/send and tasks/get'),
  }),
  z.object({
    jsonrpc: z.literal('2.0'),
    id: ZRpcId.describe('the id of the request answered (null when it could not be read)'),
    error: ZRpcError,
  }),
]);

/**
 * POST /api/a2a: JSON-RPC 2.0, a transport of its own (lib/a2a/transport.ts runs each call through
 * the operation core). Whatever JSON arrives is answered in the protocol (a malformed request is a
 * -32600 with HTTP 200), so the body's schema accepts any JSON and says what a request is; the REST
 * envelope answers only what is refused before JSON-RPC starts (token, URL, size, media type, rate).
 */
export const a2aRpc = defineEndpoint({
  id: 'a2a.rpc',
  method: 'POST',
  path: '/api/a2a',
  summary: 'A2A: JSON-RPC 2.0 calls of the a2a.* and moderation.* methods, and message/send, tasks/get, tasks/cancel',
  tag: 'a2a',
  auth: 'user',
  // Any signed-in caller reaches the transport; each call's method declares what it requires.
  requires: [],
  jsonRpc: true,
  envelope: false,
  body: z
    .unknown()
    .describe(
      'A JSON-RPC 2.0 request {jsonrpc: "2.0", id?, method, params?} or a batch (an array of 1 to 50 of them). ' +
        'Methods and their params: GET /api/a2a/methods. Anything else is answered in JSON-RPC: -32700 for text that is not JSON, -32600 for what is not a request.',
    ),
  response: z.union([ZRpcAnswer, z.array(ZRpcAnswer).describe('a batch\'s answers, one per request with an id, matched by id')]),
  errors: ['UNAUTHORIZED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
});

export const a2aMethods = defineEndpoint({
  id: 'a2a.methods',
  method: 'GET',
  path: '/api/a2a/methods',
  summary: 'The A2A methods: names, aliases, what each does, whether it writes, and its params as JSON Schema',
  tag: 'a2a',
  auth: 'public',
  requires: ['read'],
  response: z.object({
    success: z.literal(true),
    endpoint: z.string(),
    methods: z.array(
      z.object({
        name: z.string(),
        aliases: z.array(z.string()),
        summary: z.string(),
        group: z.enum(['discovery', 'markets', 'portfolio', 'orders', 'trading', 'payments', 'moderation']),
        kind: z.enum(['read', 'write']),
        params: z
          .object({
            type: z.literal('object'),
            properties: z.record(z.string(), z.record(z.string(), z.unknown()).describe('a JSON Schema 2020-12 object')),
            required: z.array(z.string()).optional(),
            additionalProperties: z.literal(false).optional().describe('false: a param the method does not name is refused (-32602)'),
          })
          .describe('JSON Schema of the params object: the params by name'),
      }),
    ),
    protocolMethods: z.array(z.object({ name: z.string(), summary: z.string() })),
  }),
});

export const a2aEndpoints = [a2aAgentCard, a2aAgentCardAlias, a2aJwks, a2aRpc, a2aMethods] as const;
