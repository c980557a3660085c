/**
 * A player's money and positions for agents, through the REST services: the balance (decimal
 * strings; another player's is refused as REST refuses it), positions, and the two together.
 * Each also carries the names Babylon's agents read (CONTRACT.md "Compatibility"): the balance's
 * `reputationPoints`, the positions as `marketPositions` and `perpPositions` too.
 */
import { z } from 'zod';
import { ZIdParam } from '@/lib/contracts/common';
import { A2A_RESULTS } from '@/lib/contracts/a2a';
import type { TCaller } from '@/lib/auth/caller';
import { getBalanceWithNumbers, getPositionsWithNumbers } from '@/lib/equity/answers';
import { getPnlHistory } from '@/lib/equity/history';
import { PNL_RANGES } from '@/lib/equity/series';
import { getProfile } from '@/lib/users/service/read-profile';
import { aliasField, defineMethod } from './types';

const ZWho = z.strictObject({ userId: ZIdParam.optional().describe('whose (id or username); yourself when absent') });
const who = (raw: Record<string, unknown>) => aliasField(raw, 'userId', ['agentId', 'user']);

/** The balance as REST answers it (the owner rule first), with the owner's reputation points. */
async function balanceOf(caller: TCaller, userId: string) {
  const balance = await getBalanceWithNumbers({ caller, userId, limit: 20, offset: 0 });
  const { reputationPoints } = await getProfile({ caller, userId });
  return { ...balance, reputationPoints };
}

/** The positions as REST answers them, and under Babylon's names. */
async function positionsOf(caller: TCaller, userId: string) {
  const positions = await getPositionsWithNumbers(userId, caller);
  return { ...positions, marketPositions: positions.predictions, perpPositions: positions.perps };
}

export const portfolioMethods = [
  defineMethod({
    name: 'a2a.getBalance',
    summary: 'A balance and its recent transactions, as GET /api/users/{userId}/balance answers it (your own only)',
    group: 'portfolio',
    kind: 'read',
    requires: ['read'],
    params: ZWho,
    normalize: who,
    result: A2A_RESULTS['a2a.getBalance'],
    run: ({ caller }, p) => balanceOf(caller, p.userId ?? caller.userId),
  }),
  defineMethod({
    name: 'a2a.getPositions',
    summary: 'Open prediction and perpetual positions, as GET /api/markets/positions/{userId} answers them',
    group: 'portfolio',
    kind: 'read',
    requires: ['read'],
    params: ZWho,
    normalize: who,
    result: A2A_RESULTS['a2a.getPositions'],
    run: ({ caller }, p) => positionsOf(caller, p.userId ?? caller.userId),
  }),
  defineMethod({
    name: 'a2a.getUserWallet',
    summary: 'The balance and the positions together (your own only)',
    group: 'portfolio',
    kind: 'read',
    requires: ['read'],
    params: ZWho,
    normalize: who,
    result: A2A_RESULTS['a2a.getUserWallet'],
    run: async ({ caller }, p) => {
      const userId = p.userId ?? caller.userId;
      // The balance first: it holds the owner rule (FORBIDDEN for another player's wallet).
      const balance = await balanceOf(caller, userId);
      return { userId, balance, positions: await positionsOf(caller, userId) };
    },
  }),
  defineMethod({
    name: 'a2a.getPnlHistory',
    summary: 'P&L over time (day, week, month, all) split by product, with ROI and drawdown, as GET /api/users/{userId}/pnl-history answers it',
    group: 'portfolio',
    kind: 'read',
    reads: 'replica',
    requires: ['read'],
    params: ZWho.extend({ range: z.enum(PNL_RANGES).default('month').describe('day, week, month or all') }),
    normalize: who,
    result: A2A_RESULTS['a2a.getPnlHistory'],
    run: ({ caller }, p) => getPnlHistory({ caller, userId: p.userId ?? caller.userId, range: p.range }),
  }),
];
