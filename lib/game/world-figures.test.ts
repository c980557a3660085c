import { describe, expect, it } from 'vitest';
import { maskQuestion, repeatedQuestions, worldFigures } from './world-figures';

const day = (d: number) => new Date(Date.UTC(2030, 0, 1) + d * 86_400_000);

describe('world figures', () => {
  it('masks numbers and dates, so questions that differ only in them are one', () => {
    expect(maskQuestion('Will $SOLR close above 41.5 by Tue, Dec 3?')).toBe(maskQuestion('Will $SOLR close above 39 by Fri, Jan 17?'));
    expect(maskQuestion('Will $SOLR close above 41.5 by Tue, Dec 3?')).not.toBe(maskQuestion('Will $SOLR close below 41.5 by Tue, Dec 3?'));
  });

  it('counts a text asked again within 30 days, not after', () => {
    const qs = [
      { text: 'Will $A close above 10 by Mon, Jan 6?', createdAt: day(0) },
      { text: 'Will $A close above 12 by Mon, Jan 20?', createdAt: day(10) },
      { text: 'Will $A close above 11 by Mon, Mar 2?', createdAt: day(45) },
      { text: 'Will $B close above 11 by Mon, Jan 20?', createdAt: day(11) },
    ];
    expect(repeatedQuestions(qs).map((r) => r.text)).toEqual(['Will $A close above 12 by Mon, Jan 20?']);
  });

  it('scores insiders against deceivers and the largest gap to a fundamental', () => {
    const w = worldFigures({
      posts: ['one two three four five', 'six seven eight nine ten'],
      questions: [],
      resolved: { questions: 2, storylinesPublished: 2 },
      tickers: [
        { ticker: 'A', fairValue: 110, fundamental: 100 },
        { ticker: 'B', fairValue: 80, fundamental: 100 },
      ],
      calls: [
        { role: 'insider', probability: 0.8, outcome: 1 },
        { role: 'deceiver', probability: 0.8, outcome: 0 },
      ],
    });
    expect(w.insiders.brier).toBeCloseTo(0.04);
    expect(w.deceivers.brier).toBeCloseTo(0.64);
    expect(w.maxGap).toBeCloseTo(Math.log(1.25));
    expect(w.distinctFourGrams).toBe(1);
  });
});
