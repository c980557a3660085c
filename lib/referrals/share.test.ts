import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '@/lib/money/decimal';
import { referralEarner, referralShare } from './share';

/** A fee in money units: up to 12 integer digits, 8 places. */
const arbFee = fc.bigInt({ min: 0n, max: 10n ** 20n }).map((c) => dec(c.toString()).div('1e8'));
const arbId = fc.constantFrom('alice', 'bob', 'carol');

describe('referralShare: the referrer earns half the fee, never of their own', () => {
  it('examples: half rounded down to 8 places; nothing for no referrer or oneself', () => {
    expect(referralShare('0.1', { payerId: 'a', referrerId: 'b' }).share.toFixed()).toBe('0.05');
    expect(referralShare('0.00000003', { payerId: 'a', referrerId: 'b' }).share.toFixed()).toBe('0.00000001');
    expect(referralShare('0.00000003', { payerId: 'a', referrerId: 'b' }).rest.toFixed()).toBe('0.00000002');
    expect(referralShare('0.00000001', { payerId: 'a', referrerId: 'b' }).share.toFixed()).toBe('0');
    expect(referralShare('0.1', { payerId: 'a', referrerId: null }).share.toFixed()).toBe('0');
    expect(referralShare('0.1', { payerId: 'a' }).rest.toFixed()).toBe('0.1');
    expect(referralShare('0.1', { payerId: 'a', referrerId: 'a' }).share.toFixed()).toBe('0');
    expect(referralEarner({ payerId: 'a', referrerId: 'b' })).toBe('b');
    expect(referralEarner({ payerId: 'a', referrerId: 'a' })).toBeNull();
    expect(referralEarner({ payerId: 'a', referrerId: '' })).toBeNull();
  });

  it('property: share + rest = fee exactly, 0 <= share <= fee, share is money (8 places)', () => {
    fc.assert(
      fc.property(arbFee, arbId, fc.option(arbId), (fee, payerId, referrerId) => {
        const { share, rest } = referralShare(fee, { payerId, referrerId });
        expect(share.plus(rest).eq(fee)).toBe(true);
        expect(share.gte(0) && share.lte(fee)).toBe(true);
        expect(share.decimalPlaces()).toBeLessThanOrEqual(8);
        // Half rounded down: the referrer never gets more than the collector keeps.
        expect(share.lte(rest)).toBe(true);
        if (referralEarner({ payerId, referrerId })) expect(rest.minus(share).lte('0.00000001')).toBe(true);
        else expect(rest.eq(fee)).toBe(true);
      }),
    );
  });

  it('property: the share is 0 without a referrer or for oneself, half otherwise', () => {
    fc.assert(
      fc.property(arbFee, arbId, arbId, (fee, payerId, other) => {
        expect(referralShare(fee, { payerId, referrerId: null }).share.isZero()).toBe(true);
        expect(referralShare(fee, { payerId, referrerId: undefined }).share.isZero()).toBe(true);
        expect(referralShare(fee, { payerId, referrerId: payerId }).share.isZero()).toBe(true);
        const { share } = referralShare(fee, { payerId, referrerId: other });
        expect(share.toFixed()).toBe(other === payerId ? '0' : fee.div(2).toDecimalPlaces(8, 1).toFixed());
      }),
    );
  });
});
