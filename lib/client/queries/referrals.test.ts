import { describe, expect, it } from 'vitest';
import { toFeeChartDays } from './referrals';

describe('toFeeChartDays', () => {
  it('fills the days without fees with zeros, oldest first, ending today', () => {
    const days = toFeeChartDays([{ day: '2027-03-02', total: '1.5', bySource: { predictions: '1', perps: '0.5', pools: '0' } }], 3, '2027-03-03');
    expect(days.map((d) => d.day)).toEqual(['2027-03-01', '2027-03-02', '2027-03-03']);
    expect(days[1]).toEqual({ day: '2027-03-02', predictions: 1, perps: 0.5, pools: 0, total: 1.5 });
    expect(days[0]!.total).toBe(0);
  });
});
