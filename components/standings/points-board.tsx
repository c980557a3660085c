'use client';

import Link from 'next/link';
import { useMemo } from 'react';
import { RankedPlayer } from '@/components/leagues/ranked-player';
import { Pager } from '@/components/moderation/pager';
import { Card } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { DataTable, type TDataColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatCount, formatSignedMoney } from '@/components/ui/format';
import { LeaderboardIcon } from '@/components/ui/icons';
import { pnlClass } from '@/components/ui/pnl';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import {
  BOARD_WORDS,
  LEADERBOARD_PAGE_SIZE,
  boardPoints,
  isMetricBoard,
  tiedRanks,
  useLeaderboard,
  type TLeaderboardEntry,
  type TPeriod,
  type TPlayers,
  type TRankedBoard,
} from '@/lib/client/queries/standings';
import { useSession } from '@/lib/client/queries/users';
import { PnlSparkline } from './pnl-sparkline';

type TRow = TLeaderboardEntry & { isYou: boolean; isTied: boolean };

const nameOf = (e: TLeaderboardEntry) => e.user.displayName || e.user.username;

const Rank = ({ rank, isTied }: { rank: number; isTied: boolean }) => (
  <span className="font-semibold text-ink tabular-nums" title={isTied ? `Tied for ${rank}` : undefined}>
    {isTied && <span aria-hidden="true">=</span>}
    {rank}
    {isTied && <span className="sr-only"> (tied)</span>}
  </span>
);

const Pnl = ({ value }: { value: number }) => <span className={cn('tabular-nums', pnlClass(value))}>{formatSignedMoney(value)}</span>;

const percent = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' });

/** The figure an entry is ranked by on a board: points, a signed amount, or a signed percentage. */
const Score = ({ entry, board }: { entry: TLeaderboardEntry; board: TRankedBoard }) => {
  if (board === 'pnl') return <Pnl value={entry.score} />;
  if (board === 'roi') return <span className={cn('tabular-nums', pnlClass(entry.score))}>{percent.format(entry.score)}</span>;
  return <>{formatCount(boardPoints(entry, board))}</>;
};

const BoardSkeleton = () => (
  <Card role="status" aria-label="Loading the leaderboard" className="flex flex-col gap-3">
    {Array.from({ length: 8 }, (_, i) => (
      <div key={i} className="flex items-center gap-3">
        <Skeleton className="h-5 w-8" />
        <Skeleton className="size-8 rounded-full" />
        <Skeleton className="h-5 flex-1" />
        <Skeleton className="h-5 w-16" />
        <Skeleton className="h-8 w-24 max-sm:hidden" />
      </div>
    ))}
  </Card>
);

/** A row on a phone: rank and player, reputation and lifetime PnL under the name; the board's points and the PnL line on the right. */
const PhoneRow = ({ row, board }: { row: TRow; board: TRankedBoard }) => (
  <div className={cn('flex items-center gap-3 px-4 py-3', row.isYou && 'bg-accent-soft')}>
    <span className="w-8 shrink-0 text-center text-sm">
      <Rank rank={row.rank} isTied={row.isTied} />
    </span>
    <div className="flex min-w-0 flex-1 flex-col gap-1">
      <RankedPlayer user={row.user} kind={row.kind} isYou={row.isYou} />
      <p className="truncate text-xs text-ink-muted tabular-nums">
        Reputation {formatCount(row.reputation)} · P&L <Pnl value={row.lifetimePnL} />
      </p>
    </div>
    <div className="flex shrink-0 flex-col items-end gap-1">
      <p className="text-sm font-semibold text-ink tabular-nums">
        <Score entry={row} board={board} />
        {!isMetricBoard(board) && (
          <span aria-hidden="true" className="text-xs font-normal text-ink-muted">
            {' '}
            pts
          </span>
        )}
        <span className="sr-only"> {BOARD_WORDS[board].unit}</span>
      </p>
      <PnlSparkline history={row.pnlHistory} name={nameOf(row)} size="sm" />
    </div>
  </div>
);

/** The table's column widths, shared by the pinned row so its figures sit under the headers. */
const WIDTHS = { rank: 'w-16', player: undefined, points: 'w-24', reputation: 'w-28', pnl: 'w-32', trend: 'w-32' } as const;

/**
 * The caller's own entry, whatever page is shown: pinned to the bottom of the screen while the
 * board scrolls (above the phone's tab bar), marked "You". On wide screens it is a one-row table
 * on the board's columns.
 */
const YourRow = ({ me, board }: { me: TLeaderboardEntry; board: TRankedBoard }) => (
  <section
    aria-label="Your rank"
    className="sticky bottom-[calc(4rem+env(safe-area-inset-bottom))] z-10 rounded-b-2xl border-t-2 border-accent/60 bg-elevated/95 backdrop-blur md:bottom-0"
  >
    <table className="hidden w-full table-fixed text-sm md:table">
      <caption className="sr-only">Your rank on this board</caption>
      <colgroup>
        {Object.entries(WIDTHS).map(([id, w]) => (
          <col key={id} className={w} />
        ))}
      </colgroup>
      <thead className="sr-only">
        <tr>
          <th scope="col">Rank</th>
          <th scope="col">Player</th>
          <th scope="col">{BOARD_WORDS[board].column}</th>
          <th scope="col">Reputation</th>
          <th scope="col">Lifetime P&L</th>
          <th scope="col">P&L, 14 days</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <td className="py-3 pr-4 pl-5 sm:pl-6">
            <span className="font-semibold text-ink tabular-nums" data-testid="your-rank">
              {me.rank}
            </span>
          </td>
          <td className="py-3 pr-4">
            <RankedPlayer user={me.user} kind={me.kind} isYou />
          </td>
          <td className="py-3 pr-4 text-right font-semibold text-ink tabular-nums">
            <Score entry={me} board={board} />
          </td>
          <td className="py-3 pr-4 text-right text-ink-muted tabular-nums">{formatCount(me.reputation)}</td>
          <td className="py-3 pr-4 text-right">
            <Pnl value={me.lifetimePnL} />
          </td>
          <td className="py-3 pr-5 text-right sm:pr-6">
            <PnlSparkline history={me.pnlHistory} name={nameOf(me)} />
          </td>
        </tr>
      </tbody>
    </table>
    <div className="flex items-center gap-3 px-4 py-3 md:hidden">
      <span className="flex w-8 shrink-0 flex-col items-center">
        <span className="text-[10px] font-medium tracking-wide text-ink-faint uppercase">Rank</span>
        <span className="text-base font-semibold text-ink tabular-nums" data-testid="your-rank">
          {me.rank}
        </span>
      </span>
      <RankedPlayer user={me.user} kind={me.kind} isYou className="flex-1" />
      <dl className="flex shrink-0 items-center gap-4 text-right text-sm">
        <div>
          <dt className="text-xs text-ink-muted">{BOARD_WORDS[board].column}</dt>
          <dd className="font-semibold text-ink tabular-nums">
            <Score entry={me} board={board} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-ink-muted">P&L</dt>
          <dd>
            <Pnl value={me.lifetimePnL} />
          </dd>
        </div>
      </dl>
    </div>
  </section>
);

/**
 * One board (points: all, earned or referral; or P&L or ROI over a period): ranked players with
 * their avatar (NPCs and agents marked), the board's figure, reputation, lifetime P&L and its line
 * over the last daily closes, in pages, with the caller's own row pinned.
 */
export const PointsBoard = ({
  board: which,
  period,
  players = 'all',
  page,
  onPageChange,
}: {
  board: TRankedBoard;
  period: TPeriod;
  /** Everyone, humans only, or agents and bots only. */
  players?: TPlayers;
  page: number;
  onPageChange: (page: number) => void;
}) => {
  const board = useLeaderboard(which, page, { period, players });
  const session = useSession();
  const data = board.data;
  const meId = data?.me?.user.id;

  const rows = useMemo(() => {
    if (!data) return [];
    const tied = tiedRanks(data.leaderboard);
    return data.leaderboard.map((e) => ({ ...e, isYou: e.user.id === meId, isTied: tied.has(e.rank) }));
  }, [data, meId]);

  const columns = useMemo(() => {
    const cols: TDataColumn<TRow>[] = [
      { id: 'rank', header: 'Rank', width: WIDTHS.rank, cell: (r) => <Rank rank={r.rank} isTied={r.isTied} /> },
      {
        id: 'player',
        header: 'Player',
        cell: (r) => <RankedPlayer user={r.user} kind={r.kind} isYou={r.isYou} />,
      },
      {
        id: 'points',
        header: BOARD_WORDS[which].column,
        align: 'right',
        width: WIDTHS.points,
        cell: (r) => (
          <span className="font-semibold text-ink tabular-nums" data-testid="board-score">
            <Score entry={r} board={which} />
          </span>
        ),
      },
      { id: 'reputation', header: 'Reputation', align: 'right', width: WIDTHS.reputation, cell: (r) => <span className="text-ink-muted tabular-nums">{formatCount(r.reputation)}</span> },
      { id: 'pnl', header: 'Lifetime P&L', align: 'right', width: WIDTHS.pnl, cell: (r) => <Pnl value={r.lifetimePnL} /> },
      { id: 'trend', header: 'P&L, 14 days', align: 'right', width: WIDTHS.trend, cell: (r) => <PnlSparkline history={r.pnlHistory} name={nameOf(r)} /> },
    ];
    // The caller's row is tinted in the table as on the phone list.
    return cols.map((c) => ({ ...c, cellClassName: (r: TRow) => (r.isYou ? 'bg-accent-soft' : '') }));
  }, [which]);

  if (board.isPending) return <BoardSkeleton />;
  if (board.isError && !data) {
    return <ErrorState title="The leaderboard did not load" message={describeError(board.error)} onRetry={() => board.refetch()} isRetrying={board.isFetching} />;
  }
  if (!data || (data.leaderboard.length === 0 && page === 1)) {
    if (players !== 'all') {
      return (
        <EmptyState
          icon={<LeaderboardIcon />}
          title={players === 'agents' ? 'No agents on this board yet' : 'No humans on this board yet'}
          description={
            players === 'agents'
              ? 'Agents and players who trade through an API key are ranked here as they earn. Show everyone to see the whole board.'
              : 'Players without a bot are ranked here as they earn. Show everyone to see the whole board.'
          }
        />
      );
    }
    return (
      <EmptyState
        icon={<LeaderboardIcon />}
        title="The board is empty for now"
        description="Players are ranked here as they earn points. Trade, post and invite friends to get on the board."
      />
    );
  }

  const { pagination } = data;
  const periodWords = isMetricBoard(which) ? (period === 'all' ? ', all time' : period === 'day' ? ', today' : `, this ${period}`) : '';
  const playerWords = players === 'humans' ? ', humans only' : players === 'agents' ? ', agents and bots only' : '';
  const caption = `Leaderboard by ${BOARD_WORDS[which].caption}${periodWords}${playerWords}, page ${pagination.page} of ${Math.max(1, pagination.totalPages)}`;
  return (
    <div className="flex flex-col gap-4">
      <Card isPadded={false} className="pt-4" aria-busy={board.isPlaceholderData || undefined}>
        <DataTable
          rows={rows}
          columns={columns}
          rowKey={(r) => r.user.id}
          caption={caption}
          isFixed
          listClassName="border-t border-line"
          itemClassName="border-t border-line first:border-t-0"
          renderItem={(r) => <PhoneRow row={r} board={which} />}
          empty={<p className="px-6 pb-6 text-sm text-ink-muted">No players on this page.</p>}
        />
        {data.me ? (
          <YourRow me={data.me} board={which} />
        ) : session.isSignedOut ? (
          <p className="border-t border-line px-5 py-3 text-sm text-ink-muted sm:px-6">
            <Link href="/sign-in" className="font-medium text-accent hover:underline">
              Sign in
            </Link>{' '}
            to see where you stand.
          </p>
        ) : null}
      </Card>
      <Pager
        label="Leaderboard pages"
        pagination={{ limit: pagination.pageSize, offset: (pagination.page - 1) * pagination.pageSize, total: pagination.total }}
        shown={data.leaderboard.length}
        onChange={(offset) => onPageChange(Math.floor(offset / LEADERBOARD_PAGE_SIZE) + 1)}
        isBusy={board.isPlaceholderData}
      />
    </div>
  );
};
