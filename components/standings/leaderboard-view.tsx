'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { Tabs, tabPanelProps } from '@/components/ui/tabs';
import { BOARDS, leaderboardFromParams, leaderboardToParams, type TBoard } from '@/lib/client/queries/standings';
import { LeagueBoard } from './league-board';
import { PointsBoard } from './points-board';

const TAB_ID = 'leaderboard';

/**
 * The leaderboard page: tabs for the points boards (all, earned, referral) and the league, the
 * tab and page kept in the address (?board=earned&page=2) so a board can be linked. The address
 * is replaced, not pushed: arrowing through the tabs does not fill the history.
 */
export const LeaderboardView = () => {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  // A choice not yet in the address (router.replace lands a moment later) shows at once; it holds
  // while the address is still the one it was made from.
  const here = searchParams.toString();
  const [pending, setPending] = useState<{ board: TBoard; page: number; from: string } | null>(null);
  const { board, page } = pending && pending.from === here ? pending : leaderboardFromParams(searchParams);

  const go = (nextBoard: TBoard, nextPage: number) => {
    setPending({ board: nextBoard, page: nextPage, from: here });
    const qs = leaderboardToParams(nextBoard, nextPage).toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };

  return (
    <div className="flex flex-col gap-5">
      <Tabs label="Leaderboards" idPrefix={TAB_ID} value={board} tabs={BOARDS} onChange={(b) => go(b, 1)} />
      <div {...tabPanelProps(TAB_ID, board)}>
        {board === 'league' ? <LeagueBoard /> : <PointsBoard pointsType={board} page={page} onPageChange={(p) => go(board, p)} />}
      </div>
    </div>
  );
};
