import { describe, expect, it } from 'vitest';
import { formatWorldReport, worldReport, type TResolvedQuestion } from './report';

const qs: TResolvedQuestion[] = [
  { questionNumber: 1, kind: 'event', outcome: 1, probability: 0.8, dayBefore: 0.9 },
  { questionNumber: 2, kind: 'event', outcome: 0, probability: 0.2, dayBefore: 0.1 },
  { questionNumber: 3, kind: 'price', outcome: 0, probability: 0.4, dayBefore: null },
  { questionNumber: 4, kind: null, outcome: 1, probability: null, dayBefore: 0.55 },
];

describe('worldReport', () => {
  it('counts, compares YES with the born probabilities and scores the price a day before', () => {
    const r = worldReport(qs);
    expect(r.resolved).toBe(4);
    expect(r.yesRate).toBe(0.5);
    expect(r.born.n).toBe(3);
    expect(r.born.meanProbability).toBeCloseTo(1.4 / 3, 12);
    expect(r.born.z.yes).toBe(1);
    expect(r.born.brier).toBeCloseTo((0.04 + 0.04 + 0.16) / 3, 12);
    expect(r.dayBefore.n).toBe(3);
    expect(r.dayBefore.brier).toBeCloseTo((0.01 + 0.01 + 0.2025) / 3, 12);
    expect(r.dayBefore.bins.map((b) => b.n)).toEqual([0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });

  it('prints a line per bin', () => {
    const text = formatWorldReport(worldReport(qs));
    expect(text).toContain('Resolved questions: 4');
    expect(text).toContain('Brier 0.074');
    expect(text.split('\n').filter((l) => /^\d\.\d–\d\.\d/.test(l))).toHaveLength(10);
  });
});
