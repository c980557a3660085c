/**
 * Trading for agents (issue 33): the calls Babylon's agents make (its A2AMethod enum and
 * HttpA2AClient: getPredictions, getPerpetuals, buyShares, sellShares, openPosition,
 * closePosition) over the REST services and rules — the same validation, rate-limit rules, key
 * caps, Idempotency-Key and dry runs as POST /api/markets/predictions/{id}/buy and the others.
 * Answers are the REST answers plus the names Babylon's agents read (lib/contracts/a2a.ts).
 */
import { z } from 'zod';
import { A2A_RESULTS } from '@/lib/contracts/a2a';
import { ZIdParam, zCaseEnum } from '@/lib/contracts/common';
import { predictionsBuy, predictionsSell } from '@/lib/contracts/markets';
import { perpsOpen } from '@/lib/contracts/perps';
import { AppError } from '@/lib/errors/app-error';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { getUserPositions, listPredictions } from '@/lib/markets/service/read-markets';
import { sellShares } from '@/lib/markets/service/sell-shares';
import { dec, toDecimalString, toMoney, toNumber } from '@/lib/money/decimal';
import { runOrPreview } from '@/lib/operations/dry-run';
import { closePosition } from '@/lib/perps/service/close-position';
import { openPosition } from '@/lib/perps/service/open-position';
import { listTickers } from '@/lib/perps/service/read';
import { aliasField, defineMethod } from './types';

const ZOutcome = zCaseEnum(['YES', 'NO'], 'upper');
const ZDryRun = z.boolean().optional().describe('true: answer what the call would do now and change nothing');
// The REST bodies' own amount rules (bounds, decimal strings, INVALID_TRADE_SIZE).
const { amount: ZBuyAmount } = predictionsBuy.body.in.shape;
const { shares: ZSellShares, positionId: ZPositionId } = predictionsSell.body.in.shape;

const market = (raw: Record<string, unknown>) => aliasField(raw, 'marketId', ['id', 'questionId', 'market']);
const outcome = (raw: Record<string, unknown>) => aliasField(raw, 'outcome', ['side']);

/** A perp's margin, as the engine debits it (lib/perps/math.ts: size / leverage at money scale). */
const marginOf = (size: number | string, leverage: number | string) => toDecimalString(toMoney(dec(size).div(leverage)));

export const tradingMethods = [
  defineMethod({
    name: 'a2a.getPredictions',
    summary: 'Prediction questions by status (active by default), newest first, paged as GET /api/markets/predictions',
    group: 'trading',
    kind: 'read',
    reads: 'replica',
    requires: ['read'],
    rateLimit: 'predictionsList',
    params: z.strictObject({
      status: z.enum(['active', 'resolved', 'all']).default('active'),
      page: z.number().int().min(1).max(10_000).default(1),
      limit: z.number().int().min(1).max(100).default(20),
      q: z.string().trim().max(200).optional().describe('words the question text contains'),
      sort: z.enum(['newest', 'volume', 'closing', 'movers']).default('newest'),
      userId: ZIdParam.optional().describe("adds this user's position to each question"),
    }),
    result: A2A_RESULTS['a2a.getPredictions'],
    run: async (_ctx, p) => {
      const page = await listPredictions({ ...p, q: p.q || undefined });
      return { ...page, predictions: page.questions.map((m) => ({ ...m, resolved: m.status === 'resolved' })) };
    },
  }),
  defineMethod({
    name: 'a2a.getPerpetuals',
    summary: 'Every perpetual ticker with mark and index price, 24 h change, funding rate and open interest',
    group: 'trading',
    kind: 'read',
    reads: 'replica',
    requires: ['read'],
    params: z.strictObject({}),
    result: A2A_RESULTS['a2a.getPerpetuals'],
    run: async () => {
      const answer = await listTickers();
      return { ...answer, perpetuals: answer.tickers };
    },
  }),
  defineMethod({
    name: 'a2a.buyShares',
    summary: 'Buy YES or NO shares of a question for `amount` (0.1% fee, minimum 1); dryRun: true previews it without writing',
    group: 'trading',
    kind: 'write',
    requires: ['trade'],
    rateLimit: 'predictionsTrade',
    idempotent: true,
    params: z.strictObject({ marketId: ZIdParam.describe('the question id'), outcome: ZOutcome, amount: ZBuyAmount, dryRun: ZDryRun }),
    fieldErrors: predictionsBuy.fieldErrors,
    keyCaps: (p) => ({ amount: p.amount, dryRun: p.dryRun }),
    normalize: (raw) => outcome(market(raw)),
    result: A2A_RESULTS['a2a.buyShares'],
    run: async ({ caller }, { dryRun, marketId, ...p }) => {
      const answer = await runOrPreview(dryRun, () => buyShares({ caller, marketId, ...p }));
      return { ...answer, cost: toNumber(p.amount) };
    },
  }),
  defineMethod({
    name: 'a2a.sellShares',
    summary: 'Sell shares of a position (positionId), or of an outcome of a question (marketId and outcome); dryRun: true previews it without writing',
    group: 'trading',
    kind: 'write',
    requires: ['trade'],
    rateLimit: 'predictionsTrade',
    idempotent: true,
    params: z
      .strictObject({
        marketId: ZIdParam.optional().describe('the question id (with outcome; optional with positionId)'),
        positionId: ZPositionId.describe('the position to sell from'),
        outcome: ZOutcome.optional(),
        shares: ZSellShares,
        dryRun: ZDryRun,
      })
      .refine((p) => p.positionId !== undefined || (p.marketId !== undefined && p.outcome !== undefined), {
        message: 'positionId, or marketId and outcome, is required',
        path: ['positionId'],
      }),
    fieldErrors: predictionsSell.fieldErrors,
    keyCaps: () => null, // a sale commits no currency
    normalize: (raw) => outcome(market(raw)),
    result: A2A_RESULTS['a2a.sellShares'],
    run: async ({ caller }, { dryRun, ...p }) => {
      // Babylon's agents name only the position: its question is the caller's position's.
      let marketId = p.marketId;
      if (marketId === undefined) {
        const held = (await getUserPositions(caller.userId)).predictions.find((x) => x.id === p.positionId);
        if (!held) throw new AppError('NOT_FOUND', 'Position not found', { positionId: p.positionId });
        marketId = held.marketId;
      }
      return runOrPreview(dryRun, () => sellShares({ caller, marketId, positionId: p.positionId, outcome: p.outcome, shares: p.shares }));
    },
  }),
  defineMethod({
    name: 'a2a.openPosition',
    summary: 'Open a leveraged long or short on a ticker: debits margin (size / leverage) plus a 0.1% fee; dryRun: true previews it without writing',
    group: 'trading',
    kind: 'write',
    requires: ['trade'],
    rateLimit: 'perpOpen',
    idempotent: true,
    params: perpsOpen.body,
    keyCaps: (p) => ({ amount: marginOf(p.size, p.leverage), leverage: p.leverage, dryRun: p.dryRun }),
    result: A2A_RESULTS['a2a.openPosition'],
    run: async ({ caller }, { dryRun, ...p }) => {
      const answer = await runOrPreview(dryRun, () => openPosition({ caller, ...p }));
      return { ...answer, positionId: answer.position.id, entryPrice: answer.position.entryPrice };
    },
  }),
  defineMethod({
    name: 'a2a.closePosition',
    summary: 'Close a perp position at the mark: realized PnL, funding settled, margin and PnL credited; dryRun: true previews it without writing',
    group: 'trading',
    kind: 'write',
    requires: ['trade'],
    rateLimit: 'perpClose',
    idempotent: true,
    params: z.strictObject({ positionId: ZIdParam, dryRun: ZDryRun }),
    keyCaps: () => null, // a close commits no currency
    normalize: (raw) => aliasField(raw, 'positionId', ['id']),
    result: A2A_RESULTS['a2a.closePosition'],
    run: async ({ caller }, p) => {
      const answer = await runOrPreview(p.dryRun, () => closePosition({ caller, positionId: p.positionId }));
      return { ...answer, pnl: answer.realizedPnL };
    },
  }),
];
