'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { Tabs, tabPanelProps } from '@/components/ui/tabs';
import { BOARDS, isMetricBoard, leaderboardFromParams, leaderboardToParams, PERIODS, type TBoard, type TPeriod } from '@/lib/client/queries/standings';
import { LeagueBoard } from './league-board';
import { PointsBoard } from './points-board';

const TAB_ID = 'leaderboard';

/**
 * The leaderboard page: tabs for the points boards (all, earned, referral), the P&L and ROI boards
 * (with their period: today, the week, the season, all time) and the league; the tab, period and
 * page kept in the address (?board=pnl&period=week&page=2) so a board can be linked. The address
 * is replaced, not pushed: arrowing through the tabs does not fill the history.
 */
export const LeaderboardView = () => {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  // A choice not yet in the address (router.replace lands a moment later) shows at once; it holds
  // while the address is still the one it was made from.
  const here = searchParams.toString();
  const [pending, setPending] = useState<{ board: TBoard; page: number; period: TPeriod; from: string } | null>(null);
  const { board, page, period } = pending && pending.from === here ? pending : leaderboardFromParams(searchParams);

  const go = (nextBoard: TBoard, nextPage: number, nextPeriod: TPeriod = period) => {
    setPending({ board: nextBoard, page: nextPage, period: nextPeriod, from: here });
    const qs = leaderboardToParams(nextBoard, nextPage, nextPeriod).toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };

  return (
    <div className="flex flex-col gap-5">
      <Tabs label="Leaderboards" idPrefix={TAB_ID} value={board} tabs={BOARDS} onChange={(b) => go(b, 1)} />
      <div {...tabPanelProps(TAB_ID, board)} className="flex flex-col gap-4">
        {isMetricBoard(board) && (
          <fieldset className="flex flex-wrap items-center gap-2">
            <legend className="sr-only">Period</legend>
            {PERIODS.map((p) => (
              <label
                key={p.value}
                className="cursor-pointer rounded-full border border-line px-3 py-1 text-sm text-ink-muted has-checked:border-accent has-checked:bg-accent-soft has-checked:text-ink has-focus-visible:ring-2 has-focus-visible:ring-accent"
              >
                <input type="radio" name="period" value={p.value} checked={period === p.value} onChange={() => go(board, 1, p.value)} className="sr-only" />
                {p.label}
              </label>
            ))}
          </fieldset>
        )}
        {board === 'league' ? <LeagueBoard /> : <PointsBoard board={board} period={period} page={page} onPageChange={(p) => go(board, p)} />}
      </div>
    </div>
  );
};
