'use client';

import Link from 'next/link';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Label } from '@/components/ui/field';
import { formatDateTime } from '@/components/ui/format';
import { ShieldIcon } from './admin-console';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { MODERATION_ACTIONS, type TModerationAction } from '@/lib/contracts/admin';
import { useModerationTrail, type TModerationTrailEntry } from './moderation-queries';

export const ACTION_LABEL: Record<TModerationAction, string> = {
  remove_post: 'Removed a post',
  restore_post: 'Restored a post',
  remove_comment: 'Removed a comment',
  restore_comment: 'Restored a comment',
  warn: 'Warned',
  ban: 'Banned',
  unban: 'Unbanned',
};

const TONE: Record<TModerationAction, 'down' | 'up' | 'warn'> = {
  remove_post: 'down',
  remove_comment: 'down',
  ban: 'down',
  warn: 'warn',
  restore_post: 'up',
  restore_comment: 'up',
  unban: 'up',
};

const Entry = ({ a }: { a: TModerationTrailEntry }) => (
  <li className="flex flex-col gap-1 px-4 py-3 text-sm">
    <div className="flex flex-wrap items-center gap-2">
      <Badge tone={TONE[a.action]}>{ACTION_LABEL[a.action]}</Badge>
      {a.targetUser && <span className="text-ink">@{a.targetUser.username}</span>}
      <span className="text-ink-muted">by @{a.actor.username}</span>
      <span className="ml-auto text-xs text-ink-faint">{formatDateTime(a.createdAt)}</span>
    </div>
    {(a.reason || a.endsAt) && (
      <p className="text-ink-muted">
        {a.reason ?? ''}
        {a.endsAt && ` · until ${formatDateTime(a.endsAt)}`}
      </p>
    )}
    <p className="flex flex-wrap gap-3 text-xs">
      {a.postId && (
        <Link className="text-accent hover:underline" href={`/posts/${encodeURIComponent(a.postId)}${a.commentId ? `#comment-${a.commentId}` : ''}`}>
          Open {a.commentId ? 'comment' : 'post'}
        </Link>
      )}
      {a.reportId && (
        <Link className="text-accent hover:underline" href={`/admin/reports/${encodeURIComponent(a.reportId)}`}>
          Open report
        </Link>
      )}
    </p>
  </li>
);

/** Every moderation action (removals, restorations, warnings, bans, lifted bans), newest first, filterable by action. */
export const ModerationTrail = () => {
  const [action, setAction] = useState<TModerationAction | ''>('');
  const query = useModerationTrail(action ? { action } : {});
  const entries = query.data?.pages.flatMap((p) => p.actions) ?? [];
  return (
    <section aria-labelledby="trail-title" className="flex flex-col gap-4">
      <h2 id="trail-title" className="text-lg font-semibold tracking-tight text-ink">
        Moderation audit trail
      </h2>
      <div className="flex w-fit min-w-[13rem] flex-col gap-1">
        <Label htmlFor="trail-action" className="text-xs text-ink-muted">
          Action
        </Label>
        <Select id="trail-action" value={action} onChange={(e) => setAction(e.target.value as TModerationAction | '')}>
          <option value="">Every action</option>
          {MODERATION_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {ACTION_LABEL[a]}
            </option>
          ))}
        </Select>
      </div>
      {query.isPending ? (
        <Skeleton className="h-40 w-full rounded-2xl" />
      ) : query.isError && !query.data ? (
        <ErrorState message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />
      ) : entries.length === 0 ? (
        <EmptyState icon={<ShieldIcon />} title="No moderation actions" description="Removals, warnings and bans will be listed here." />
      ) : (
        <Card isPadded={false} className="overflow-hidden">
          <ol aria-label="Moderation actions" className="flex flex-col divide-y divide-line">
            {entries.map((a) => (
              <Entry key={a.id} a={a} />
            ))}
          </ol>
        </Card>
      )}
      {query.hasNextPage && (
        <Button variant="secondary" className="w-fit" isLoading={query.isFetchingNextPage} onClick={() => query.fetchNextPage()}>
          Show older
        </Button>
      )}
    </section>
  );
};
