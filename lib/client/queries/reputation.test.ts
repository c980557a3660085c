import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toReputationBars, type TReputationBreakdown } from './reputation';

type TBreakdown = TReputationBreakdown['breakdown'];
type TPartKey = TBreakdown['parts'][number]['key'];

const part = (key: TPartKey, weight: number, value: number) => ({
  key,
  label: key.charAt(0).toUpperCase() + key.slice(1),
  weight,
  value,
  contribution: Math.round(1000 * weight * value),
  raw: {},
});

const breakdown = (penalties: TBreakdown['penalties'] = []): TBreakdown => ({
  parts: [part('trading', 0.35, 0.5), part('accuracy', 0.3, 1), part('social', 0.2, 0), part('community', 0.15, 0.2)],
  penalties,
  formula: 'score = sum of parts + penalties',
});

describe('toReputationBars', () => {
  it("gives each part a bar of its contribution out of weight × maxScore, in the parts' order", () => {
    const { bars } = toReputationBars(breakdown(), 1000);
    expect(bars).toEqual([
      { key: 'trading', label: 'Trading', points: 175, maxPoints: 350, isPenalty: false },
      { key: 'accuracy', label: 'Accuracy', points: 300, maxPoints: 300, isPenalty: false },
      { key: 'social', label: 'Social', points: 0, maxPoints: 200, isPenalty: false },
      { key: 'community', label: 'Community', points: 30, maxPoints: 150, isPenalty: false },
    ]);
  });

  it('scales the most a part can give with maxScore, rounded to whole points', () => {
    const { bars } = toReputationBars(breakdown(), 100);
    expect(bars.map((b) => b.maxPoints)).toEqual([35, 30, 20, 15]);
    expect(toReputationBars({ ...breakdown(), parts: [part('trading', 1 / 3, 0)] }, 1000).bars[0]!.maxPoints).toBe(333);
  });

  it('puts penalties after the parts, negative, with no most', () => {
    const { bars } = toReputationBars(
      breakdown([
        { key: 'reports', label: 'Upheld reports', contribution: -40, raw: { upheldReports: 2 } },
        { key: 'ban', label: 'Ban', contribution: -500, raw: { banned: 1 } },
      ]),
      1000,
    );
    expect(bars.slice(4)).toEqual([
      { key: 'reports', label: 'Upheld reports', points: -40, maxPoints: null, isPenalty: true },
      { key: 'ban', label: 'Ban', points: -500, maxPoints: null, isPenalty: true },
    ]);
    expect(bars.slice(0, 4).every((b) => !b.isPenalty)).toBe(true);
  });

  it("scales the chart to the largest part's most and the largest penalty taken", () => {
    expect(toReputationBars(breakdown(), 1000)).toMatchObject({ positiveMax: 350, negativeMax: 0 });
    const penalised = toReputationBars(
      breakdown([
        { key: 'reports', label: 'Upheld reports', contribution: -40, raw: {} },
        { key: 'ban', label: 'Ban', contribution: -500, raw: {} },
      ]),
      1000,
    );
    expect(penalised).toMatchObject({ positiveMax: 350, negativeMax: 500 });
    // A penalty that does not apply (0) takes nothing.
    expect(toReputationBars(breakdown([{ key: 'reports', label: 'Upheld reports', contribution: 0, raw: {} }]), 1000).negativeMax).toBe(0);
  });

  it('never gives a zero positive scale (no parts)', () => {
    expect(toReputationBars({ parts: [], penalties: [], formula: '' }, 1000)).toEqual({ bars: [], positiveMax: 1, negativeMax: 0 });
  });

  it("bars add up to the score: the parts' contributions plus the penalties (property)", () => {
    const keys: TPartKey[] = ['trading', 'accuracy', 'social', 'community'];
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: -1000, max: 0 }),
        fc.integer({ min: -1000, max: 0 }),
        (shares, values, reports, ban) => {
          const sum = shares.reduce((a, b) => a + b, 0);
          const parts = keys.map((k, i) => part(k, shares[i]! / sum, values[i]!));
          const penalties = [
            { key: 'reports' as const, label: 'Upheld reports', contribution: reports, raw: {} },
            { key: 'ban' as const, label: 'Ban', contribution: ban, raw: {} },
          ];
          const { bars, positiveMax, negativeMax } = toReputationBars({ parts, penalties, formula: '' }, 1000);
          const total = parts.reduce((a, p) => a + p.contribution, 0) + reports + ban;
          expect(bars.reduce((a, b) => a + b.points, 0)).toBe(total);
          for (const b of bars) {
            if (b.isPenalty) expect(b.points).toBeLessThanOrEqual(0);
            else {
              expect(b.points).toBeGreaterThanOrEqual(0);
              expect(b.points).toBeLessThanOrEqual(b.maxPoints!);
              expect(b.maxPoints!).toBeLessThanOrEqual(positiveMax);
            }
          }
          expect(negativeMax).toBe(Math.max(0, -reports, -ban));
        },
      ),
    );
  });
});
