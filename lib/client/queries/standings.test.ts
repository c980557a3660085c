import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOARDS, getLeaderboardQueryOptions, leaderboardFromParams, leaderboardToParams, PLAYER_FILTERS, tiedRanks, type TBoard, type TPeriod, type TPlayers } from './standings';

const ranks = (...rs: number[]) => rs.map((rank) => ({ rank }));

describe('tiedRanks', () => {
  it('flags the ranks that more than one entry on the page shares', () => {
    expect([...tiedRanks(ranks(1, 2, 2, 4, 5))]).toEqual([2]);
    expect([...tiedRanks(ranks(1, 2, 2, 2, 5, 6, 6, 8))].sort((a, b) => a - b)).toEqual([2, 6]);
  });

  it('flags a tie on the first rows and on the last rows of the page', () => {
    expect([...tiedRanks(ranks(1, 1, 3, 4))]).toEqual([1]);
    expect([...tiedRanks(ranks(51, 52, 53, 53))]).toEqual([53]);
    expect(tiedRanks(ranks(51, 52, 53, 53)).has(51)).toBe(false);
  });

  it('flags nothing when every rank is distinct, on a single row, or on an empty page', () => {
    expect(tiedRanks(ranks(1, 2, 3, 4)).size).toBe(0);
    expect(tiedRanks(ranks(7)).size).toBe(0);
    expect(tiedRanks([]).size).toBe(0);
  });

  it('flags a rank exactly when it occurs more than once (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 50 }), (rs) => {
        const tied = tiedRanks(ranks(...rs));
        for (const r of new Set(rs)) expect(tied.has(r)).toBe(rs.filter((x) => x === r).length > 1);
        for (const r of tied) expect(rs).toContain(r);
      }),
    );
  });
});

describe('leaderboardFromParams', () => {
  const from = (qs: string) => leaderboardFromParams(new URLSearchParams(qs));

  it('reads a known board and a page', () => {
    expect(from('board=earned&page=2')).toEqual({ board: 'earned', page: 2, period: 'all', players: 'all' });
    expect(from('board=referral')).toEqual({ board: 'referral', page: 1, period: 'all', players: 'all' });
    expect(from('board=league')).toEqual({ board: 'league', page: 1, period: 'all', players: 'all' });
    expect(from('page=7')).toEqual({ board: 'all', page: 7, period: 'all', players: 'all' });
  });

  it('falls back to the all board for an unknown or empty board', () => {
    expect(from('')).toEqual({ board: 'all', page: 1, period: 'all', players: 'all' });
    expect(from('board=bogus&page=3')).toEqual({ board: 'all', page: 3, period: 'all', players: 'all' });
    expect(from('board=')).toEqual({ board: 'all', page: 1, period: 'all', players: 'all' });
    expect(from('board=Earned')).toEqual({ board: 'all', page: 1, period: 'all', players: 'all' });
  });

  it('falls back to page 1 for anything but a whole page of 2 or more', () => {
    for (const page of ['', '0', '1', '-2', '2.5', 'two', 'Infinity', '1e999', 'NaN']) {
      expect(from(`board=earned&page=${encodeURIComponent(page)}`)).toEqual({ board: 'earned', page: 1, period: 'all', players: 'all' });
    }
  });

  it('always gives a known board and a whole page ≥ 1, whatever the address (property)', () => {
    const known = new Set<string>(BOARDS.map((b) => b.value));
    fc.assert(
      fc.property(fc.option(fc.string()), fc.option(fc.oneof(fc.string(), fc.integer().map(String), fc.double().map(String))), (board, page) => {
        const p = new URLSearchParams();
        if (board !== null) p.set('board', board);
        if (page !== null) p.set('page', page);
        const got = leaderboardFromParams(p);
        expect(known.has(got.board)).toBe(true);
        expect(Number.isInteger(got.page)).toBe(true);
        expect(got.page).toBeGreaterThanOrEqual(1);
        if (board === null || !known.has(board)) expect(got.board).toBe('all');
      }),
    );
  });
});

describe('leaderboardToParams', () => {
  it('leaves the defaults out of the address', () => {
    expect(leaderboardToParams('all', 1).toString()).toBe('');
    expect(leaderboardToParams('all', 3).toString()).toBe('page=3');
    expect(leaderboardToParams('earned', 1).toString()).toBe('board=earned');
    expect(leaderboardToParams('referral', 2).toString()).toBe('board=referral&page=2');
  });

  it('writes no page for the league board (it has none)', () => {
    expect(leaderboardToParams('league', 4).toString()).toBe('board=league');
  });

  it('reads back what it wrote for the paged boards (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom<TBoard>('all', 'earned', 'referral'), fc.integer({ min: 1, max: 10_000 }), (board, page) => {
        expect(leaderboardFromParams(leaderboardToParams(board, page))).toEqual({ board, page, period: 'all', players: 'all' });
      }),
    );
  });

  it('keeps the period of the P&L and ROI boards, and only theirs (property)', () => {
    expect(leaderboardToParams('pnl', 1, 'week').toString()).toBe('board=pnl&period=week');
    expect(leaderboardToParams('roi', 2, 'all').toString()).toBe('board=roi&page=2');
    expect(leaderboardToParams('earned', 1, 'week').toString()).toBe('board=earned');
    expect(leaderboardFromParams(new URLSearchParams('board=earned&period=day')).period).toBe('all');
    expect(leaderboardFromParams(new URLSearchParams('board=pnl&period=decade')).period).toBe('all');
    fc.assert(
      fc.property(
        fc.constantFrom<TBoard>('pnl', 'roi'),
        fc.integer({ min: 1, max: 10_000 }),
        fc.constantFrom<TPeriod>('day', 'week', 'season', 'all'),
        (board, page, period) => {
          expect(leaderboardFromParams(leaderboardToParams(board, page, period))).toEqual({ board, page, period, players: 'all' });
        },
      ),
    );
  });
});

describe('the player filter', () => {
  it('reads and writes ?players= on the ranked boards, leaving the default out', () => {
    expect(leaderboardToParams('all', 1, 'all', 'agents').toString()).toBe('players=agents');
    expect(leaderboardToParams('pnl', 2, 'week', 'humans').toString()).toBe('board=pnl&period=week&players=humans&page=2');
    expect(leaderboardToParams('earned', 1, 'all', 'all').toString()).toBe('board=earned');
    expect(leaderboardFromParams(new URLSearchParams('players=humans'))).toEqual({ board: 'all', page: 1, period: 'all', players: 'humans' });
    expect(leaderboardFromParams(new URLSearchParams('players=robots')).players).toBe('all');
    expect(leaderboardFromParams(new URLSearchParams('players=Agents')).players).toBe('all');
  });

  it('has no player filter on the league board', () => {
    expect(leaderboardToParams('league', 1, 'all', 'agents').toString()).toBe('board=league');
    expect(leaderboardFromParams(new URLSearchParams('board=league&players=agents')).players).toBe('all');
  });

  it('reads back what it wrote for every ranked board, period and filter (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<TBoard>('all', 'earned', 'referral', 'pnl', 'roi'),
        fc.integer({ min: 1, max: 10_000 }),
        fc.constantFrom<TPlayers>(...PLAYER_FILTERS.map((p) => p.value)),
        (board, page, players) => {
          const period: TPeriod = board === 'pnl' || board === 'roi' ? 'week' : 'all';
          expect(leaderboardFromParams(leaderboardToParams(board, page, period, players))).toEqual({ board, page, period, players });
        },
      ),
    );
  });

  it('is part of the query key, so each filter is cached on its own', () => {
    const all = getLeaderboardQueryOptions('all', 1).queryKey;
    expect(getLeaderboardQueryOptions('all', 1, 'all', 'all').queryKey).toEqual(all);
    expect(getLeaderboardQueryOptions('all', 1, 'all', 'agents').queryKey).not.toEqual(all);
    expect(getLeaderboardQueryOptions('all', 1, 'all', 'humans').queryKey).not.toEqual(getLeaderboardQueryOptions('all', 1, 'all', 'agents').queryKey);
  });
});
