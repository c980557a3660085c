import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparePositions, formatPosition, isAfter, parsePosition } from './position';

const position = fc.record({ txId: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), id: fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }) });

describe('event positions', () => {
  it('round-trip through their wire form', () => {
    fc.assert(
      fc.property(position, (p) => {
        expect(parsePosition(formatPosition(p))).toEqual(p);
      }),
    );
    expect(formatPosition({ txId: 7431n, id: 1289n })).toBe('7431-1289');
  });

  it('order by transaction id first, then id (never by id alone)', () => {
    fc.assert(
      fc.property(position, position, (a, b) => {
        const expected = a.txId !== b.txId ? Math.sign(Number(a.txId - b.txId)) : Math.sign(Number(a.id - b.id));
        expect(comparePositions(a, b)).toBe(expected);
        expect(comparePositions(b, a)).toBe(-expected);
        expect(isAfter(a, b)).toBe(expected > 0);
      }),
    );
    // A smaller id in a later transaction comes after.
    expect(comparePositions({ txId: 11n, id: 1n }, { txId: 10n, id: 2n })).toBe(1);
    expect(isAfter({ txId: 1n, id: 1n }, null)).toBe(true);
  });

  it('refuses anything that is not a position', () => {
    for (const bad of ['', '12', '12-', '-3', '1-2-3', 'a-1', '1.5-2', '18446744073709551616-1', '1-9223372036854775808']) {
      expect(parsePosition(bad)).toBeNull();
    }
  });
});
