'use client';

import { useMemo } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/components/ui/cn';
import { DataTable, type TDataColumn } from '@/components/ui/data-table';
import { formatCount } from '@/components/ui/format';
import { qualificationNeeds, type TLeagueDivision, type TLeagueEntry, type TLeagueRules } from '@/lib/client/queries/leagues';
import { formatScore, formatSeasonReturn, formatShare } from './format';
import { RankedPlayer } from './ranked-player';

type TRow = TLeagueEntry & { isYou: boolean };

/** The row's tint: green in the promotion zone, red in the relegation zone, the accent on the caller's own row. */
const rowTint = (row: TRow) =>
  row.zone === 'promotion' ? 'bg-up-soft' : row.zone === 'relegation' ? 'bg-down-soft' : row.isYou ? 'bg-accent-soft' : undefined;

/** The bar at the row's start, so a zone reads at a glance; the words are in the zone column. */
const rowEdge = (row: TRow) =>
  cn('border-l-4', row.zone === 'promotion' ? 'border-l-up' : row.zone === 'relegation' ? 'border-l-down' : row.isYou ? 'border-l-accent' : 'border-l-transparent');

/**
 * Where a row stands, in words (never by colour alone): an open season's zone, or what an
 * unqualified player still needs; a closed season's outcome.
 */
export const ZoneTag = ({ entry, isClosed, rules }: { entry: TLeagueEntry; isClosed: boolean; rules: TLeagueRules }) => {
  if (isClosed) {
    if (!entry.qualified) return <span className="text-xs text-ink-faint">Not qualified</span>;
    if (entry.outcome === 'promoted') return <Badge tone="up">↑ Promoted</Badge>;
    if (entry.outcome === 'relegated') return <Badge tone="down">↓ Relegated</Badge>;
    return <span className="text-xs text-ink-muted">Stayed</span>;
  }
  if (entry.zone === 'promotion') return <Badge tone="up">↑ Promotion zone</Badge>;
  if (entry.zone === 'relegation') return <Badge tone="down">↓ Relegation zone</Badge>;
  if (entry.zone === 'safe') return <span className="text-xs text-ink-muted">Safe</span>;
  const needs = qualificationNeeds(entry, rules);
  return <span className="text-xs text-warn">{needs ? `Needs ${needs}` : 'Qualifies at the next close'}</span>;
};

const RankCell = ({ rank }: { rank: number | null }) =>
  rank === null ? (
    <span className="text-ink-faint">
      <span aria-hidden="true">—</span>
      <span className="sr-only">Unranked</span>
    </span>
  ) : (
    <span className="font-semibold text-ink tabular-nums">{rank}</span>
  );

const returnClass = (r: number) => (r > 0 ? 'text-up' : r < 0 ? 'text-down' : 'text-ink-muted');

/**
 * A division's table: rank, player, score and return, and where each stands (promotion and
 * relegation zones marked by tint, an edge bar and words; unqualified players with what they still
 * need; a closed season's outcomes), the caller's row highlighted. `compact` keeps the essentials
 * (the leaderboard's League tab). A table on wide screens, a list on phones.
 */
export const DivisionTable = ({ division, caption, isCompact = false }: { division: TLeagueDivision; caption: string; isCompact?: boolean }) => {
  const isClosed = division.season.status === 'closed';
  const meId = division.me?.user.id;
  const rules = division.rules;
  const rows = useMemo(() => division.entries.map((e) => ({ ...e, isYou: e.user.id === meId })), [division.entries, meId]);

  const columns = useMemo(() => {
    const cols: (TDataColumn<TRow> & { isFull?: boolean; isOpenOnly?: boolean })[] = [
      { id: 'rank', header: 'Rank', width: 'w-20', cell: (r) => <RankCell rank={r.rank} /> },
      { id: 'player', header: 'Player', cell: (r) => <RankedPlayer user={r.user} kind={r.kind} isYou={r.isYou} /> },
      { id: 'score', header: 'Score', align: 'right', width: 'w-24', cell: (r) => <span className="font-medium text-ink tabular-nums">{formatScore(r.score)}</span> },
      {
        id: 'return',
        header: 'Return',
        align: 'right',
        width: 'w-24',
        cell: (r) => <span className={cn('tabular-nums', returnClass(r.seasonReturn))}>{formatSeasonReturn(r.seasonReturn)}</span>,
      },
      { id: 'volatility', header: 'Volatility', align: 'right', width: 'w-24', isFull: true, cell: (r) => <span className="text-ink-muted tabular-nums">{formatShare(r.volatility)}</span> },
      { id: 'trades', header: 'Trades', align: 'right', width: 'w-20', isFull: true, cell: (r) => <span className="text-ink-muted tabular-nums">{formatCount(r.trades)}</span> },
      { id: 'days', header: 'Days', align: 'right', width: 'w-16', isFull: true, isOpenOnly: true, cell: (r) => <span className="text-ink-muted tabular-nums">{formatCount(r.days)}</span> },
      {
        id: 'zone',
        header: isClosed ? 'Outcome' : 'Zone',
        width: isCompact ? 'w-40' : 'w-48',
        cell: (r) => <ZoneTag entry={r} isClosed={isClosed} rules={rules} />,
      },
    ];
    return cols
      .filter((c) => (!isCompact || !c.isFull) && (!isClosed || !c.isOpenOnly))
      .map((c, i) => ({
        ...c,
        cellClassName: (r: TRow) => cn(rowTint(r), i === 0 && rowEdge(r)),
      }));
  }, [isClosed, isCompact, rules]);

  return (
    <DataTable
      rows={rows}
      columns={columns}
      rowKey={(r) => r.user.id}
      caption={caption}
      isFixed
      listClassName="border-t border-line"
      itemClassName="border-t border-line first:border-t-0"
      renderItem={(r) => (
        <div aria-current={r.isYou ? 'true' : undefined} className={cn('flex items-center gap-3 py-3 pr-5 pl-4', rowTint(r), rowEdge(r))}>
          <span className="w-7 shrink-0 text-center text-sm">
            <RankCell rank={r.rank} />
          </span>
          <div className="flex min-w-0 flex-1 flex-col items-start gap-1.5">
            <RankedPlayer user={r.user} kind={r.kind} isYou={r.isYou} className="max-w-full" />
            <ZoneTag entry={r} isClosed={isClosed} rules={rules} />
          </div>
          <dl className="shrink-0 text-right text-xs">
            <dt className="sr-only">Score</dt>
            <dd className="text-sm font-medium text-ink tabular-nums">{formatScore(r.score)}</dd>
            <dt className="sr-only">Return</dt>
            <dd className={cn('tabular-nums', returnClass(r.seasonReturn))}>{formatSeasonReturn(r.seasonReturn)}</dd>
          </dl>
        </div>
      )}
    />
  );
};
