/**
 * The self-dealing detector's rules as pure functions: rows the queries in ./queries.ts read
 * (bounded time windows, indexed lookups) in, findings out, each with a plain-English reason a
 * moderator can check against the evidence (trade and ledger row ids, sums). No I/O.
 *
 *   referral_ring  a referrer with at least 3 referred accounts created within 48 h of each other
 *                  that traded the same question in the last 7 days, whose referral fees from them
 *                  are at least half of the referrer's referral income in that time: farming
 *                  referral rewards with one's own accounts. Beneficiary: the referrer.
 *   wash_pair      two accounts that, at least 4 times in 24 h, moved the same question's price in
 *                  opposite directions within 10 minutes of each other (one buys YES or sells NO
 *                  while the other buys NO or sells YES): moving money between accounts through
 *                  the pool. Beneficiary: the account whose side of those trades gained more,
 *                  valued at the question's price before the pair started (or its outcome once
 *                  resolved), so that the pair's own push on the price does not count as a gain.
 *
 * A finding names its subject (the beneficiary, the reported user) and a key (its identity for
 * de-duplication: the referrer, or the pair), both stored in the report's details.
 */
import { dec, toDecimalString, toNumber, type TDecimal } from '@/lib/money/decimal';

export const HOUR_MS = 3_600_000;

export const RULES = {
  referralRing: {
    /** Referred accounts made in this window are candidates (a ring farms from signup on). */
    signupLookbackMs: 30 * 24 * HOUR_MS,
    /** All of a ring's accounts were created within this span. */
    signupSpanMs: 48 * HOUR_MS,
    minAccounts: 3,
    /** Trades and referral income are compared over this window. */
    tradeWindowMs: 7 * 24 * HOUR_MS,
    /** The ring's share of the referrer's referral income at which it is reported. */
    minIncomeShare: 0.5,
  },
  washPair: {
    windowMs: 24 * HOUR_MS,
    /** Two trades are a pair when this close in time. */
    pairGapMs: 10 * 60_000,
    /** Paired trades of each account (distinct trades) before the pair is reported. */
    minPairedTrades: 4,
  },
  /** Traded amount (gross) from which a finding is high priority rather than medium. */
  highPriorityVolume: 10_000,
  /** Evidence ids kept per finding (the sums cover every row). */
  maxEvidenceIds: 100,
} as const;

export type TRuleName = 'referral_ring' | 'wash_pair';

export type TFinding = {
  rule: TRuleName;
  /** The de-duplication key: the referrer for a ring, "a|b" (ids in order) for a pair. */
  key: string;
  /** The beneficiary: the reported user. */
  subjectId: string;
  accounts: string[];
  priority: 'medium' | 'high';
  reason: string;
  evidence: Record<string, unknown>;
};

const round2 = (d: TDecimal) => toNumber(d.toDecimalPlaces(2));
const fmt = (d: TDecimal) => round2(d).toLocaleString('en-US', { maximumFractionDigits: 2 });
const listNames = (names: string[]) => names.map((n) => `@${n}`).join(', ');
const priorityFor = (volume: TDecimal) => (volume.gte(RULES.highPriorityVolume) ? ('high' as const) : ('medium' as const));

// ---------------------------------------------------------------------------------------------
// referral_ring

/** One referred account's trades on one question in the window (one row per account and question). */
export type TRingTradeRow = {
  referrerId: string;
  referrerUsername: string;
  userId: string;
  username: string;
  userCreatedAt: Date;
  marketId: string;
  question: string;
  trades: number;
  volume: string;
  referralFees: string;
  sides: string[];
  tradeIds: string[];
};

/** A referrer's referral_fee ledger rows in the window, per referenced question. */
export type TReferralIncomeRow = { referrerId: string; marketId: string | null; total: string; count: number; ledgerIds: string[] };

/**
 * The largest group of accounts created within `spanMs` of each other (a window over their
 * creation times), ties to the earliest. Accounts sorted by creation time.
 */
export function largestSignupCluster<T extends { userCreatedAt: Date }>(accounts: T[], spanMs: number): T[] {
  const sorted = [...accounts].sort((a, b) => a.userCreatedAt.getTime() - b.userCreatedAt.getTime());
  let best: T[] = [];
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end]!.userCreatedAt.getTime() - sorted[start]!.userCreatedAt.getTime() > spanMs) start++;
    if (end - start + 1 > best.length) best = sorted.slice(start, end + 1);
  }
  return best;
}

export function findReferralRings(tradeRows: TRingTradeRow[], incomeRows: TReferralIncomeRow[]): TFinding[] {
  const cfg = RULES.referralRing;
  const byReferrer = new Map<string, TRingTradeRow[]>();
  for (const r of tradeRows) byReferrer.set(r.referrerId, [...(byReferrer.get(r.referrerId) ?? []), r]);
  const findings: TFinding[] = [];
  for (const [referrerId, rows] of [...byReferrer.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    // The ring: the largest set of accounts created within 48 h of each other that traded one
    // question (questions in id order, so ties pick the same ring every run).
    const byMarket = new Map<string, TRingTradeRow[]>();
    for (const r of rows) byMarket.set(r.marketId, [...(byMarket.get(r.marketId) ?? []), r]);
    let best: TRingTradeRow[] = [];
    for (const [, traders] of [...byMarket.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const cluster = largestSignupCluster(traders, cfg.signupSpanMs);
      if (cluster.length > best.length) best = cluster;
    }
    if (best.length < cfg.minAccounts) continue;
    const ring = new Map(best.map((r) => [r.userId, r]));
    // The questions at least `minAccounts` of the ring traded.
    const ringMarkets = new Set(
      [...byMarket.entries()].filter(([, traders]) => traders.filter((t) => ring.has(t.userId)).length >= cfg.minAccounts).map(([m]) => m),
    );

    // Everything the ring's accounts traded in the window, and what it paid the referrer.
    const ringRows = rows.filter((r) => ring.has(r.userId));
    const ringFees = ringRows.reduce((s, r) => s.plus(r.referralFees), dec(0));
    const volume = ringRows.reduce((s, r) => s.plus(r.volume), dec(0));
    const income = incomeRows.filter((i) => i.referrerId === referrerId);
    const incomeTotal = income.reduce((s, i) => s.plus(i.total), dec(0));
    if (ringFees.lte(0) || incomeTotal.lte(0)) continue;
    const share = ringFees.div(incomeTotal);
    if (share.lt(cfg.minIncomeShare)) continue;

    const accounts = [...ring.values()].sort((a, b) => a.userCreatedAt.getTime() - b.userCreatedAt.getTime() || a.userId.localeCompare(b.userId));
    const times = accounts.map((a) => a.userCreatedAt.getTime());
    const spanHours = (Math.max(...times) - Math.min(...times)) / HOUR_MS;
    const marketRows = ringRows.filter((r) => ringMarkets.has(r.marketId));
    const questions = [...new Map(marketRows.map((r) => [r.marketId, r.question])).values()];
    const bothSides = [...ringMarkets].filter((m) => new Set(marketRows.filter((r) => r.marketId === m).flatMap((r) => r.sides)).size > 1);
    const referrerUsername = rows[0]!.referrerUsername;
    const tradeIds = ringRows.flatMap((r) => r.tradeIds).slice(0, RULES.maxEvidenceIds);
    const ledgerIds = income.filter((i) => i.marketId !== null && ringMarkets.has(i.marketId)).flatMap((i) => i.ledgerIds).slice(0, RULES.maxEvidenceIds);
    const reason =
      `Possible referral ring: @${referrerUsername} referred ${accounts.length} accounts (${listNames(accounts.map((a) => a.username))}) ` +
      `created within ${Math.round(spanHours * 10) / 10} h of each other, which all traded the same question` +
      `${ringMarkets.size > 1 ? 's' : ''} (${questions.map((q) => `"${q}"`).join(', ')}) in the last 7 days` +
      `${bothSides.length ? ', on opposite sides' : ''}. Their fees paid @${referrerUsername} ${fmt(ringFees)} in referral fees, ` +
      `${Math.round(toNumber(share) * 100)}% of @${referrerUsername}'s referral income in that time (traded volume ${fmt(volume)}).`;
    findings.push({
      rule: 'referral_ring',
      key: referrerId,
      subjectId: referrerId,
      accounts: [referrerId, ...accounts.map((a) => a.userId)],
      priority: priorityFor(volume),
      reason,
      evidence: {
        referrerId,
        referredAccounts: accounts.map((a) => ({ id: a.userId, username: a.username, createdAt: a.userCreatedAt.toISOString() })),
        signupSpanHours: Math.round(spanHours * 100) / 100,
        marketIds: [...ringMarkets].sort(),
        oppositeSidesMarketIds: bothSides.sort(),
        tradeIds,
        ledgerIds,
        sums: {
          trades: ringRows.reduce((s, r) => s + r.trades, 0),
          volume: toDecimalString(volume),
          referralFees: toDecimalString(ringFees),
          referrerReferralIncome: toDecimalString(incomeTotal),
          incomeShare: round2(share),
        },
      },
    });
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------
// wash_pair

/** One trade of a flagged pair (both accounts' paired trades), with its question's reference price. */
export type TPairTradeRow = {
  pairA: string;
  pairB: string;
  tradeId: string;
  userId: string;
  username: string;
  marketId: string;
  question: string;
  side: 'YES' | 'NO';
  action: 'buy' | 'sell';
  amount: string;
  shares: string;
  createdAt: Date;
  /**
   * The YES price the pair's trades are valued at: 1 or 0 once the question resolved, otherwise
   * its price just before the pair's first paired trade on it.
   */
  yesPriceRef: string;
};

/**
 * What a trade gained its account at the reference price: a buy gains the shares' value less
 * what it paid, a sale gains what it received less the value of the shares it gave up.
 */
export function tradeGain(t: Pick<TPairTradeRow, 'side' | 'action' | 'amount' | 'shares' | 'yesPriceRef'>): TDecimal {
  const price = t.side === 'YES' ? dec(t.yesPriceRef) : dec(1).minus(t.yesPriceRef);
  const value = dec(t.shares).times(price);
  return t.action === 'buy' ? value.minus(t.amount) : dec(t.amount).minus(value);
}

export function findWashPairs(rows: TPairTradeRow[]): TFinding[] {
  const cfg = RULES.washPair;
  const byPair = new Map<string, TPairTradeRow[]>();
  for (const r of rows) {
    const key = `${r.pairA}|${r.pairB}`;
    byPair.set(key, [...(byPair.get(key) ?? []), r]);
  }
  const findings: TFinding[] = [];
  for (const [key, trades] of [...byPair.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const ids = [trades[0]!.pairA, trades[0]!.pairB];
    const per = ids.map((id) => {
      const own = new Map(trades.filter((t) => t.userId === id).map((t) => [t.tradeId, t]));
      const list = [...own.values()];
      return {
        id,
        username: list[0]?.username ?? id,
        count: list.length,
        gain: list.reduce((s, t) => s.plus(tradeGain(t)), dec(0)),
        volume: list.reduce((s, t) => s.plus(t.amount), dec(0)),
      };
    });
    if (per.some((p) => p.count < cfg.minPairedTrades)) continue;
    // The one whose side gained more is the beneficiary; on a tie, the first id (a stable choice).
    const [winner, loser] = per[1]!.gain.gt(per[0]!.gain) ? [per[1]!, per[0]!] : [per[0]!, per[1]!];
    const volume = per[0]!.volume.plus(per[1]!.volume);
    const questions = [...new Map(trades.map((t) => [t.marketId, t.question])).values()];
    const times = Math.min(per[0]!.count, per[1]!.count);
    const reason =
      `Possible wash trading: @${per[0]!.username} and @${per[1]!.username} took opposite sides of the same question ` +
      `${times} times within 10 minutes of each other in the last 24 h (${questions.map((q) => `"${q}"`).join(', ')}). ` +
      `Valued at the price before they started, @${winner.username}'s side of these trades is ${winner.gain.gte(0) ? 'up' : 'down'} ${fmt(winner.gain.abs())} ` +
      `and @${loser.username}'s is ${loser.gain.gte(0) ? 'up' : 'down'} ${fmt(loser.gain.abs())} (traded volume ${fmt(volume)}).`;
    findings.push({
      rule: 'wash_pair',
      key,
      subjectId: winner.id,
      accounts: ids,
      priority: priorityFor(volume),
      reason,
      evidence: {
        marketIds: [...new Set(trades.map((t) => t.marketId))].sort(),
        tradeIds: [...new Set(trades.map((t) => t.tradeId))].slice(0, RULES.maxEvidenceIds),
        sums: {
          pairedTrades: Object.fromEntries(per.map((p) => [p.id, p.count])),
          gainAtReferencePrice: Object.fromEntries(per.map((p) => [p.id, toDecimalString(p.gain.toDecimalPlaces(8))])),
          volume: toDecimalString(volume),
        },
      },
    });
  }
  return findings;
}
