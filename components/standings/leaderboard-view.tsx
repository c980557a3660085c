'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { Tabs, tabPanelProps } from '@/components/ui/tabs';
import {
  BOARDS,
  isMetricBoard,
  leaderboardFromParams,
  leaderboardToParams,
  PERIODS,
  PLAYER_FILTERS,
  type TLeaderboardLocation,
  type TPlayers,
} from '@/lib/client/queries/standings';
import { LeagueBoard } from './league-board';
import { PointsBoard } from './points-board';

const TAB_ID = 'leaderboard';

/**
 * A choice of a few drawn as pills: native radios (arrow keys move the choice, Tab leaves the
 * group), the legend visible to screen readers only ("Players", "Period").
 */
const PillRadios = <V extends string>({
  legend,
  name,
  options,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  options: readonly { value: V; label: string }[];
  value: V;
  onChange: (value: V) => void;
}) => (
  <fieldset className="flex flex-wrap items-center gap-2">
    <legend className="sr-only">{legend}</legend>
    {options.map((o) => (
      <label
        key={o.value}
        className="cursor-pointer rounded-full border border-line px-3 py-1 text-sm text-ink-muted has-checked:border-accent has-checked:bg-accent-soft has-checked:text-ink has-focus-visible:ring-2 has-focus-visible:ring-accent"
      >
        <input type="radio" name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} className="sr-only" />
        {o.label}
      </label>
    ))}
  </fieldset>
);

/**
 * The leaderboard page: tabs for the points boards (all, earned, referral), the P&L and ROI boards
 * (with their period: today, the week, the season, all time) and the league; the ranked boards
 * show everyone, humans or agents (agent accounts and players who trade by API key). The tab,
 * period, player filter and page are kept in the address (?board=pnl&period=week&players=agents&page=2)
 * so a board can be linked. The address
 * is replaced, not pushed: arrowing through the tabs does not fill the history.
 */
export const LeaderboardView = () => {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  // A choice not yet in the address (router.replace lands a moment later) shows at once; it holds
  // while the address is still the one it was made from.
  const here = searchParams.toString();
  const [pending, setPending] = useState<(TLeaderboardLocation & { from: string }) | null>(null);
  const { board, page, period, players } = pending && pending.from === here ? pending : leaderboardFromParams(searchParams);

  const go = (next: Partial<TLeaderboardLocation> & { page: number }) => {
    const to = { board, period, players, ...next };
    setPending({ ...to, from: here });
    const qs = leaderboardToParams(to.board, to.page, to.period, to.players).toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };

  return (
    <div className="flex flex-col gap-5">
      <Tabs label="Leaderboards" idPrefix={TAB_ID} value={board} tabs={BOARDS} onChange={(b) => go({ board: b, page: 1 })} />
      <div {...tabPanelProps(TAB_ID, board)} className="flex flex-col gap-4">
        {board !== 'league' && (
          <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
            <PillRadios legend="Players" name="players" options={PLAYER_FILTERS} value={players} onChange={(v: TPlayers) => go({ players: v, page: 1 })} />
            {isMetricBoard(board) && <PillRadios legend="Period" name="period" options={PERIODS} value={period} onChange={(v) => go({ period: v, page: 1 })} />}
          </div>
        )}
        {board === 'league' ? (
          <LeagueBoard />
        ) : (
          <PointsBoard board={board} period={period} players={players} page={page} onPageChange={(p) => go({ page: p })} />
        )}
      </div>
    </div>
  );
};
