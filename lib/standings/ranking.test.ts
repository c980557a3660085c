import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POINTS_TYPES, pointsKindOf, rankOf, rankPage, totalPagesOf } from './ranking';

type TRow = { id: string; score: number };

/** Board order: points descending, user id ascending breaking ties. */
const boardOrder = (a: TRow, b: TRow) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Scores 0..5 so ties are the rule, each row with a distinct id; answered in board order. */
const arbBoard = fc
  .array(fc.integer({ min: 0, max: 5 }), { maxLength: 120 })
  .chain((scores) =>
    fc.shuffledSubarray(
      scores.map((_, i) => `u${String(i).padStart(4, '0')}`),
      { minLength: scores.length, maxLength: scores.length },
    ).map((ids) => ids.map((id, i): TRow => ({ id, score: scores[i]! })).sort(boardOrder)),
  );
const arbPageSize = fc.integer({ min: 1, max: 50 });

/** The global competition rank of every row of a board, computed in one pass (1, 2, 2, 4 …). */
const competitionRanks = (rows: readonly TRow[]) => {
  const out: number[] = [];
  rows.forEach((r, i) => out.push(i > 0 && r.score === rows[i - 1]!.score ? out[i - 1]! : i + 1));
  return out;
};

/** Every page of the board as a reader would see it: rows and the ranks rankPage gives them. */
const pagesOf = (rows: readonly TRow[], pageSize: number) => {
  const all = rows.map((r) => r.score);
  const pages: { rows: TRow[]; ranks: number[] }[] = [];
  for (let p = 0; p * pageSize < rows.length || p === 0; p++) {
    const offset = p * pageSize;
    const page = rows.slice(offset, offset + pageSize);
    const firstRank = page.length > 0 ? rankOf(page[0]!.score, all) : 1;
    pages.push({ rows: page, ranks: rankPage(page, (r) => r.score, firstRank, offset) });
  }
  return pages;
};

describe('pointsKindOf', () => {
  it('transfers are neither earned nor referral', () => {
    expect(pointsKindOf('transfer_in')).toBe('transfer');
    expect(pointsKindOf('transfer_out')).toBe('transfer');
  });

  it('referral awards count on the referral board', () => {
    expect(pointsKindOf('milestone:first_referral')).toBe('referral');
    expect(pointsKindOf('referral:signup')).toBe('referral');
    expect(pointsKindOf('referral:first_trade')).toBe('referral');
  });

  it('everything else is earned', () => {
    expect(pointsKindOf('milestone:profile_completed')).toBe('earned');
    expect(pointsKindOf('admin_award')).toBe('earned');
    expect(pointsKindOf('share_verified')).toBe('earned');
    expect(pointsKindOf('seed:actor_standing')).toBe('earned');
    expect(pointsKindOf('')).toBe('earned');
  });

  it('the boards are all, earned and referral', () => {
    expect(POINTS_TYPES).toEqual(['all', 'earned', 'referral']);
  });
});

describe('ranking examples', () => {
  it('rankOf counts the strictly greater scores', () => {
    const all = [10, 8, 8, 5];
    expect(all.map((s) => rankOf(s, all))).toEqual([1, 2, 2, 4]);
    expect(rankOf(7, all)).toBe(4);
    expect(rankOf(11, all)).toBe(1);
    expect(rankOf(0, [])).toBe(1);
  });

  it('ranks a whole board 1, 2, 2, 4', () => {
    expect(rankPage([10, 8, 8, 5], (s) => s, 1, 0)).toEqual([1, 2, 2, 4]);
  });

  it('a page that starts inside a tie carries the tie rank over', () => {
    // Board 10, 8, 8, 8, 5 with pages of two: the second page is [8, 8] at offset 2.
    const all = [10, 8, 8, 8, 5];
    expect(rankPage([8, 8], (s) => s, rankOf(8, all), 2)).toEqual([2, 2]);
    expect(rankPage([5], (s) => s, rankOf(5, all), 4)).toEqual([5]);
  });

  it('a page whose first row ends a tie ranks the next row by position', () => {
    const all = [9, 9, 9, 4, 4, 1];
    expect(rankPage([9, 4, 4], (s) => s, rankOf(9, all), 2)).toEqual([1, 4, 4]);
    expect(rankPage([1], (s) => s, rankOf(1, all), 5)).toEqual([6]);
  });

  it('an empty page has no ranks', () => {
    expect(rankPage<number>([], (s) => s, 1, 0)).toEqual([]);
  });

  it('totalPagesOf is at least one', () => {
    expect(totalPagesOf(0, 20)).toBe(1);
    expect(totalPagesOf(1, 20)).toBe(1);
    expect(totalPagesOf(20, 20)).toBe(1);
    expect(totalPagesOf(21, 20)).toBe(2);
    expect(totalPagesOf(100, 1)).toBe(100);
  });
});

describe('ranking properties', () => {
  it('every page gives every row its global competition rank', () => {
    fc.assert(
      fc.property(arbBoard, arbPageSize, (rows, pageSize) => {
        const expected = competitionRanks(rows);
        const all = rows.map((r) => r.score);
        const got = pagesOf(rows, pageSize).flatMap((p) => p.ranks);
        expect(got).toEqual(expected);
        // The one-pass ranks are the definition: 1 + how many score strictly more.
        rows.forEach((r, i) => expect(got[i]).toBe(1 + all.filter((s) => s > r.score).length));
      }),
      { numRuns: 200 },
    );
  });

  it('the pages cover every row exactly once, and totalPagesOf counts them', () => {
    fc.assert(
      fc.property(arbBoard, arbPageSize, (rows, pageSize) => {
        const pages = pagesOf(rows, pageSize);
        const ids = pages.flatMap((p) => p.rows.map((r) => r.id));
        expect(ids).toEqual(rows.map((r) => r.id));
        expect(new Set(ids).size).toBe(rows.length);
        const total = totalPagesOf(rows.length, pageSize);
        if (rows.length === 0) expect(total).toBe(1);
        else {
          expect(pages.filter((p) => p.rows.length > 0)).toHaveLength(total);
          expect(pages.every((p) => p.rows.length > 0)).toBe(true);
          // The page after the last one is empty.
          expect(rows.slice(total * pageSize)).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('equal scores share a rank and ranks never go down the board', () => {
    fc.assert(
      fc.property(arbBoard, arbPageSize, (rows, pageSize) => {
        const ranks = pagesOf(rows, pageSize).flatMap((p) => p.ranks);
        for (let i = 1; i < rows.length; i++) {
          expect(ranks[i]!).toBeGreaterThanOrEqual(ranks[i - 1]!);
          if (rows[i]!.score === rows[i - 1]!.score) expect(ranks[i]).toBe(ranks[i - 1]);
          else expect(ranks[i]).toBe(i + 1);
        }
        if (rows.length > 0) expect(ranks[0]).toBe(1);
      }),
      { numRuns: 200 },
    );
  });

  it('the ranks do not depend on the page size', () => {
    fc.assert(
      fc.property(arbBoard, arbPageSize, arbPageSize, (rows, a, b) => {
        expect(pagesOf(rows, a).flatMap((p) => p.ranks)).toEqual(pagesOf(rows, b).flatMap((p) => p.ranks));
      }),
      { numRuns: 100 },
    );
  });
});
