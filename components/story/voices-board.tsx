'use client';

import Link from 'next/link';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { DataTable, type TDataColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { UserIdentity } from '@/components/ui/user-identity';
import { describeError } from '@/lib/client/queries/errors';
import { profileHref } from '@/lib/users/links';
import { describeCalibration, formatBrier, formatPercent, rightShare } from './format';
import { useVoices } from './queries';
import type { TVoice } from './types';

const TITLE_ID = 'voices-title';

type TRow = TVoice & { rank: number };

const Identity = ({ voice }: { voice: TVoice }) => (
  <Link
    href={profileHref(voice)}
    className="flex min-w-0 items-center gap-3 rounded-lg hover:underline focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none"
  >
    <UserIdentity user={{ username: voice.username, displayName: voice.displayName, profileImageUrl: voice.avatarUrl, isActor: true }} />
  </Link>
);

const pctRight = (v: TVoice) => {
  const s = rightShare(v.right, v.resolved);
  return s === null ? '—' : formatPercent(s);
};

const COLUMNS: readonly TDataColumn<TRow>[] = [
  { id: 'rank', header: '#', cell: (r) => r.rank, cellClassName: 'text-ink-muted tabular-nums', width: 'w-12' },
  { id: 'voice', header: 'NPC', cell: (r) => <Identity voice={r} /> },
  { id: 'brier', header: 'Brier', align: 'right', cell: (r) => <span title={describeCalibration(r.brier, r.resolved)}>{formatBrier(r.brier)}</span>, cellClassName: 'font-semibold tabular-nums', sortValue: (r) => r.brier },
  { id: 'resolved', header: 'Resolved calls', align: 'right', cell: (r) => r.resolved, cellClassName: 'tabular-nums', sortValue: (r) => r.resolved, firstDirection: 'descending' },
  { id: 'right', header: 'Right', align: 'right', cell: pctRight, cellClassName: 'tabular-nums', sortValue: (r) => rightShare(r.right, r.resolved) ?? -1, firstDirection: 'descending' },
];

/**
 * "Voices": the NPCs whose calls have resolved at least three times, best calibrated first (lowest
 * Brier score), with their resolved calls and share right. Who to listen to, and who to fade.
 */
export const VoicesBoard = ({ limit = 20 }: { limit?: number }) => {
  const query = useVoices(limit);
  const rows: TRow[] = (query.data?.actors ?? []).map((a, i) => ({ ...a, rank: i + 1 }));
  return (
    <Card aria-labelledby={TITLE_ID} isPadded={false} data-testid="voices-board" className="flex flex-col gap-4 pt-5 sm:pt-6">
      <div className="px-5 sm:px-6">
        <CardTitle id={TITLE_ID}>Voices</CardTitle>
        <CardDescription>NPCs by how well their calls turned out (Brier score, lower is better; three resolved calls or more).</CardDescription>
      </div>
      {query.isError ? (
        <ErrorState
          className="mx-5 mb-5 sm:mx-6"
          title="Voices did not load"
          message={describeError(query.error)}
          onRetry={() => query.refetch()}
          isRetrying={query.isFetching}
        />
      ) : (
        <DataTable
          rows={rows}
          columns={COLUMNS}
          rowKey={(r) => r.id}
          caption="NPCs by calibration"
          isLoading={query.isPending}
          loadingLabel="Loading voices"
          className="pb-3"
          empty={
            <EmptyState
              className="mx-5 mb-5 sm:mx-6"
              headingLevel={3}
              title="No calibrated voices yet"
              description="An NPC shows here once three of its calls have resolved."
            />
          }
          renderItem={(r) => (
            <span className="flex items-center gap-3 px-5 py-3 sm:px-6">
              <span className="w-6 text-sm text-ink-muted tabular-nums">{r.rank}</span>
              <Identity voice={r} />
              <span className="ml-auto text-right text-sm tabular-nums">
                <span className="block font-semibold text-ink">{formatBrier(r.brier)}</span>
                <span className="block text-xs text-ink-muted">
                  {r.resolved} calls · {pctRight(r)} right
                </span>
              </span>
            </span>
          )}
          listClassName="divide-y divide-line border-t border-line"
        />
      )}
    </Card>
  );
};
