import { describe, expect, it } from 'vitest';
import { findReferralRings, findWashPairs, HOUR_MS, largestSignupCluster, tradeGain, type TPairTradeRow, type TRingTradeRow } from './rules';

const T0 = Date.UTC(2026, 0, 10);
const h = (hours: number) => new Date(T0 + hours * HOUR_MS);

const ringRow = (userId: string, createdHours: number, o: Partial<TRingTradeRow> = {}): TRingTradeRow => ({
  referrerId: 'ref',
  referrerUsername: 'boss',
  userId,
  username: `u_${userId}`,
  userCreatedAt: h(createdHours),
  marketId: 'm1',
  question: 'Will it rain?',
  trades: 1,
  volume: '100',
  referralFees: '0.05',
  sides: ['YES'],
  tradeIds: [`t-${userId}`],
  ...o,
});

const income = (total: string, marketId = 'm1') => [{ referrerId: 'ref', marketId, total, count: 3, ledgerIds: ['l1', 'l2', 'l3'] }];

describe('largestSignupCluster', () => {
  it('finds the largest set created within the span, whatever the input order', () => {
    const accounts = [0, 100, 30, 10, 60, 20].map((hours, i) => ({ id: i, userCreatedAt: h(hours) }));
    expect(largestSignupCluster(accounts, 48 * HOUR_MS).map((a) => a.id)).toEqual([0, 3, 5, 2]);
    expect(largestSignupCluster(accounts, 0).length).toBe(1);
    expect(largestSignupCluster([], 48 * HOUR_MS)).toEqual([]);
  });
});

describe('findReferralRings', () => {
  it('reports three accounts made within 48 h that traded one question and pay most of the referrer\'s income', () => {
    const rows = [ringRow('a', 0), ringRow('b', 20, { sides: ['NO'] }), ringRow('c', 47)];
    const [f, ...rest] = findReferralRings(rows, income('0.15'));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ rule: 'referral_ring', key: 'ref', subjectId: 'ref', accounts: ['ref', 'a', 'b', 'c'], priority: 'medium' });
    expect(f!.reason).toMatch(/@boss referred 3 accounts \(@u_a, @u_b, @u_c\) created within 47 h/);
    expect(f!.reason).toContain('on opposite sides');
    expect(f!.evidence).toMatchObject({ tradeIds: ['t-a', 't-b', 't-c'], ledgerIds: ['l1', 'l2', 'l3'], sums: { volume: '300', referralFees: '0.15', incomeShare: 1 } });
  });

  it('is high priority for larger sums', () => {
    const rows = ['a', 'b', 'c'].map((id, i) => ringRow(id, i, { volume: '4000' }));
    expect(findReferralRings(rows, income('0.15'))[0]!.priority).toBe('high');
  });

  it('ignores accounts made too far apart, too few accounts, different questions, and a small share of the income', () => {
    expect(findReferralRings([ringRow('a', 0), ringRow('b', 30), ringRow('c', 60)], income('0.15'))).toEqual([]);
    expect(findReferralRings([ringRow('a', 0), ringRow('b', 1)], income('0.1'))).toEqual([]);
    expect(findReferralRings([ringRow('a', 0), ringRow('b', 1), ringRow('c', 2, { marketId: 'm2' })], income('0.15'))).toEqual([]);
    expect(findReferralRings([ringRow('a', 0), ringRow('b', 1), ringRow('c', 2)], income('0.31'))).toEqual([]);
    expect(findReferralRings([ringRow('a', 0), ringRow('b', 1), ringRow('c', 2)], [])).toEqual([]);
  });
});

const pairRow = (userId: string, i: number, o: Partial<TPairTradeRow> = {}): TPairTradeRow => ({
  pairA: 'p',
  pairB: 'q',
  tradeId: `${userId}-${i}`,
  userId,
  username: userId.toUpperCase(),
  marketId: 'm1',
  question: 'Will it snow?',
  side: 'YES',
  action: 'buy',
  amount: '100',
  shares: '150',
  createdAt: h(i),
  yesPriceRef: '0.5',
  ...o,
});

describe('tradeGain', () => {
  it('values a buy and a sale at the reference price, on either side', () => {
    expect(tradeGain({ side: 'YES', action: 'buy', amount: '100', shares: '150', yesPriceRef: '0.5' }).toFixed()).toBe('-25');
    expect(tradeGain({ side: 'NO', action: 'buy', amount: '100', shares: '150', yesPriceRef: '0.2' }).toFixed()).toBe('20');
    expect(tradeGain({ side: 'YES', action: 'sell', amount: '60', shares: '100', yesPriceRef: '0.5' }).toFixed()).toBe('10');
  });
});

describe('findWashPairs', () => {
  it('names the account that gained, with both accounts and the paired trades as evidence', () => {
    const rows = [0, 1, 2, 3].flatMap((i) => [pairRow('p', i), pairRow('q', i, { action: 'sell', amount: '90' })]);
    const [f] = findWashPairs(rows);
    expect(f).toMatchObject({ rule: 'wash_pair', key: 'p|q', subjectId: 'q', accounts: ['p', 'q'], priority: 'medium' });
    expect(f!.evidence).toMatchObject({ sums: { pairedTrades: { p: 4, q: 4 }, gainAtReferencePrice: { p: '-100', q: '60' }, volume: '760' } });
    expect(f!.reason).toContain('4 times within 10 minutes');
    expect(f!.reason).toMatch(/@Q's side of these trades is up 60 and @P's is down 100/);
  });

  it('needs 4 paired trades of each account', () => {
    const rows = [0, 1, 2, 3].map((i) => pairRow('p', i)).concat([0, 1, 2].map((i) => pairRow('q', i, { side: 'NO' })));
    expect(findWashPairs(rows)).toEqual([]);
  });
});
