'use client';

import Link from 'next/link';
import { useId, useState, type FormEvent } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button, LinkButton } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { describedBy, Field } from '@/components/ui/field';
import { formatCount, formatDateTime } from '@/components/ui/format';
import { AlertIcon } from '@/components/ui/icons';
import { RelativeTime } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import {
  ADMIN_ERROR_MESSAGES,
  availableReportActions,
  isForbidden,
  REPORT_ACTIONS,
  RESOLUTION_MAX,
  useAdminReport,
  useConsoleRole,
  useReportAction,
  type TAdminReport,
  type TAdminReportAuditEntry,
  type TAdminReportDetail,
  type TAdminReportedPost,
  type TReportActionKind,
} from '@/lib/client/queries/admin';
import { describeError, getFieldErrors, hasErrorCode } from '@/lib/client/queries/errors';
import { reportCategoryLabel } from '@/lib/client/queries/moderation';
import { visibleLength } from '@/lib/client/queries/posts';
import { profileHref } from '@/lib/users/links';
import { NotAllowed } from './admin-console';
import { ModerationPanel } from './moderation-panel';
import { PRIORITY_LABEL, PRIORITY_TONE, SOURCE_LABEL, STATUS_LABEL, STATUS_TONE } from './format';

const PersonLink = ({ person }: { person: { username: string; displayName: string } | null }) =>
  person ? (
    <Link href={profileHref(person)} className="font-medium text-ink hover:underline">
      {person.displayName || person.username} <span className="text-ink-muted">@{person.username}</span>
    </Link>
  ) : (
    <span className="text-ink-muted">The system (a detector)</span>
  );

const PostQuote = ({ post, isHighlighted }: { post: TAdminReportedPost; isHighlighted?: boolean }) => (
  <article
    aria-label={isHighlighted ? 'Reported post' : 'Post'}
    className={cn('rounded-xl border px-4 py-3', isHighlighted ? 'border-down/40 bg-down-soft' : 'border-line bg-canvas')}
  >
    <p className="text-sm leading-relaxed break-words whitespace-pre-wrap text-ink">{post.content}</p>
    <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-ink-muted">
      <RelativeTime iso={post.createdAt} />
      {post.removed ? (
        <Badge tone="down">Removed: {post.removed.reason ?? 'no reason given'}</Badge>
      ) : (
        !post.visible && <Badge tone="down">Hidden from feeds</Badge>
      )}
      <Link href={`/posts/${encodeURIComponent(post.id)}`} className="text-accent hover:underline">
        Open post
      </Link>
    </p>
  </article>
);

/** A detector's findings: a key per line, nested values as formatted JSON. */
const SystemDetails = ({ details }: { details: Record<string, unknown> }) => (
  <dl className="grid gap-3 text-sm">
    {Object.entries(details).map(([key, value]) => (
      <div key={key} className="flex flex-col gap-1">
        <dt className="text-xs font-medium text-ink-muted">{key}</dt>
        <dd className="text-ink">
          {value !== null && typeof value === 'object' ? (
            <pre className="max-h-64 overflow-auto rounded-lg border border-line bg-canvas p-3 text-xs">{JSON.stringify(value, null, 2)}</pre>
          ) : (
            String(value)
          )}
        </dd>
      </div>
    ))}
  </dl>
);

const ACTION_WORDS: Record<TAdminReportAuditEntry['action'], string> = {
  review: 'claimed it for review',
  resolve: 'resolved it',
  dismiss: 'dismissed it',
  escalate: 'escalated it',
  ban_user: 'banned the reported user',
  unban_user: 'unbanned the reported user',
};

const AuditTrail = ({ actions }: { actions: TAdminReportDetail['actions'] }) =>
  actions.length === 0 ? (
    <p className="text-sm text-ink-muted">No one has acted on this report yet.</p>
  ) : (
    <ol aria-label="Audit trail" className="flex flex-col gap-3">
      {actions.map((a) => (
        <li key={a.id} className="flex flex-col gap-1 border-l-2 border-line-strong pl-3 text-sm">
          <span className="text-ink">
            <span className="font-medium">@{a.actor.username}</span> {ACTION_WORDS[a.action]}
          </span>
          <span className="text-xs text-ink-muted">
            {formatDateTime(a.createdAt)}
            {a.fromStatus !== a.toStatus && ` · ${STATUS_LABEL[a.fromStatus]} → ${STATUS_LABEL[a.toStatus]}`}
            {a.fromPriority !== a.toPriority && ` · ${PRIORITY_LABEL[a.fromPriority]} → ${PRIORITY_LABEL[a.toPriority]} priority`}
          </span>
          {a.note && <span className="rounded-lg bg-elevated px-3 py-2 text-ink">{a.note}</span>}
        </li>
      ))}
    </ol>
  );

const RelatedReports = ({ reports }: { reports: TAdminReport[] }) =>
  reports.length === 0 ? (
    <p className="text-sm text-ink-muted">No other reports about the same post or user.</p>
  ) : (
    <ul aria-label="Related reports" className="flex flex-col divide-y divide-line">
      {reports.map((r) => (
        <li key={r.id}>
          <Link href={`/admin/reports/${encodeURIComponent(r.id)}`} className="flex flex-wrap items-center gap-2 py-2 text-sm hover:underline">
            <Badge tone={PRIORITY_TONE[r.priority]}>{PRIORITY_LABEL[r.priority]}</Badge>
            <Badge tone={STATUS_TONE[r.status]}>{STATUS_LABEL[r.status]}</Badge>
            <span className="text-ink">{reportCategoryLabel(r.category)}</span>
            <span className="text-xs text-ink-muted">{r.reporter ? `from @${r.reporter.username}` : 'system'}</span>
            <RelativeTime iso={r.createdAt} className="ml-auto text-xs text-ink-faint" />
          </Link>
        </li>
      ))}
    </ul>
  );

/**
 * The decision: a resolution text (1 to 1000 characters, stored and shown in the audit trail) and
 * the actions the report's state and the caller's role allow.
 */
const ActionPanel = ({ report }: { report: TAdminReport }) => {
  const id = useId();
  const { role } = useConsoleRole();
  const act = useReportAction();
  const [resolution, setResolution] = useState('');
  const [chosen, setChosen] = useState<TReportActionKind | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const available = availableReportActions(report, role);
  const length = visibleLength(resolution.trim());
  const fieldError = problem ?? getFieldErrors(act.error).resolution;

  const submit = (action: TReportActionKind) => (e?: FormEvent) => {
    e?.preventDefault();
    setDone(null);
    // A claim (review) needs no note; every other decision does.
    if (length === 0 && action !== 'review') return setProblem('Write what you decided and why: it is stored with the report.');
    if (length > RESOLUTION_MAX) return setProblem(`Keep it under ${RESOLUTION_MAX} characters.`);
    setProblem(null);
    setChosen(action);
    act.mutate(
      { reportId: report.id, action, resolution },
      {
        onSuccess: (res) => {
          setDone(REPORT_ACTIONS.find((a) => a.action === action)?.done ?? res.message);
          setResolution('');
        },
      },
    );
  };

  const textId = `${id}-resolution`;
  return (
    <Card aria-labelledby={`${id}-title`} className="flex flex-col gap-4">
      <CardTitle id={`${id}-title`}>Decision</CardTitle>
      {available.length === 0 ? (
        <p className="text-sm text-ink-muted">This report is closed and there is nothing left to do.</p>
      ) : (
        <form onSubmit={submit(available.includes('resolve') ? 'resolve' : available[0]!)} noValidate className="flex flex-col gap-4">
          <Field id={textId} label="Resolution" hint="What you decided and why (not needed to claim it with Review). Stored with the report and shown in the audit trail." error={fieldError} counter={{ value: length, max: RESOLUTION_MAX }}>
            <Textarea
              id={textId}
              value={resolution}
              rows={3}
              onChange={(e) => {
                setResolution(e.target.value);
                if (problem) setProblem(null);
              }}
              aria-invalid={!!fieldError || undefined}
              aria-describedby={describedBy(textId, { error: fieldError, hint: true, counter: true })}
            />
          </Field>
          <div role="group" aria-label="Actions" className="flex flex-wrap gap-2">
            {REPORT_ACTIONS.filter((a) => available.includes(a.action)).map((a) => (
              <Button
                key={a.action}
                type="button"
                variant={a.action === 'ban_user' ? 'danger' : a.action === 'resolve' ? 'primary' : 'secondary'}
                title={a.description}
                isLoading={act.isPending && chosen === a.action}
                disabled={act.isPending}
                onClick={() => submit(a.action)()}
              >
                {a.label}
              </Button>
            ))}
          </div>
          <ul className="grid gap-1 text-xs text-ink-faint sm:grid-cols-2">
            {REPORT_ACTIONS.filter((a) => available.includes(a.action)).map((a) => (
              <li key={a.action}>
                <span className="font-medium text-ink-muted">{a.label}:</span> {a.description}
              </li>
            ))}
          </ul>
        </form>
      )}
      {act.isError && !getFieldErrors(act.error).resolution && (
        <Notice tone="error">
          {describeError(act.error, ADMIN_ERROR_MESSAGES)}
          {hasErrorCode(act.error, 'INVALID_REPORT_STATE') && ' The report below has been reloaded.'}
        </Notice>
      )}
      {done && <Notice tone="success">{done}</Notice>}
    </Card>
  );
};

const DetailSkeleton = () => (
  <div role="status" aria-label="Loading the report" className="flex flex-col gap-4">
    <Skeleton className="h-8 w-64" />
    <Skeleton className="h-40 w-full rounded-2xl" />
    <Skeleton className="h-40 w-full rounded-2xl" />
  </div>
);

/**
 * One report in full: what was reported and why, the reported content in context (the post, the
 * user's recent posts), a system report's findings, related reports about the same target, the
 * audit trail, and the decision panel.
 */
export const ReportDetail = ({ reportId }: { reportId: string }) => {
  const query = useAdminReport(reportId);
  if (query.isPending) return <DetailSkeleton />;
  if (query.isError) {
    if (isForbidden(query.error)) return <NotAllowed description="Your account may not open reports." />;
    if (hasErrorCode(query.error, 'REPORT_NOT_FOUND', 'NOT_FOUND', 'INVALID_PARAMETER')) {
      return (
        <EmptyState
          icon={<AlertIcon />}
          title="No such report"
          description="It may have been removed, or the address is wrong."
          action={
            <LinkButton href="/admin" variant="secondary">
              Back to the queue
            </LinkButton>
          }
        />
      );
    }
    return <ErrorState message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />;
  }

  const { report, relatedReports, actions, recentPosts } = query.data;
  const otherRecent = recentPosts.filter((p) => p.id !== report.reportedPostId);
  return (
    <div className="flex flex-col gap-5">
      <Link href="/admin" className="w-fit text-sm text-ink-muted hover:text-ink hover:underline">
        ← Report queue
      </Link>
      <section aria-labelledby="report-title" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="report-title" className="text-xl font-semibold tracking-tight text-ink">
            {reportCategoryLabel(report.category)} report about {report.reportType === 'post' ? 'a post' : 'a user'}
          </h2>
          <Badge tone={PRIORITY_TONE[report.priority]}>{PRIORITY_LABEL[report.priority]} priority</Badge>
          <Badge tone={STATUS_TONE[report.status]} data-testid="report-status">
            {STATUS_LABEL[report.status]}
          </Badge>
        </div>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-xs text-ink-muted">Reported user</dt>
            <dd className="mt-0.5 flex flex-wrap items-center gap-2">
              <PersonLink person={report.reportedUser} />
              {report.reportedUser?.isBanned && <Badge tone="down">Banned</Badge>}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-ink-muted">Reported by ({SOURCE_LABEL[report.source].toLowerCase()})</dt>
            <dd className="mt-0.5">
              <PersonLink person={report.reporter} />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-ink-muted">Filed</dt>
            <dd className="mt-0.5 text-ink">{formatDateTime(report.createdAt)}</dd>
          </div>
          <div>
            <dt className="text-xs text-ink-muted">Related reports</dt>
            <dd className="mt-0.5 text-ink">{formatCount(report.relatedCount)}</dd>
          </div>
          {report.resolution && (
            <div className="sm:col-span-2">
              <dt className="text-xs text-ink-muted">
                Resolution{report.resolvedBy ? ` by @${report.resolvedBy.username}` : ''}
                {report.resolvedAt ? `, ${formatDateTime(report.resolvedAt)}` : ''}
              </dt>
              <dd className="mt-0.5 text-ink">{report.resolution}</dd>
            </div>
          )}
        </dl>
      </section>

      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
        <div className="flex min-w-0 flex-col gap-5">
          <Card aria-labelledby="report-reason-title" className="flex flex-col gap-3">
            <CardTitle id="report-reason-title">Why it was reported</CardTitle>
            <p className="text-sm leading-relaxed break-words whitespace-pre-wrap text-ink">{report.reason}</p>
            {report.evidence && (
              <p className="text-sm">
                <span className="text-ink-muted">Evidence: </span>
                <a href={report.evidence} target="_blank" rel="noopener noreferrer nofollow" className="break-all text-accent hover:underline">
                  {report.evidence}
                </a>
              </p>
            )}
          </Card>
          {report.reportedPost && (
            <Card aria-labelledby="reported-post-title" className="flex flex-col gap-3">
              <CardTitle id="reported-post-title">The reported post</CardTitle>
              <PostQuote post={report.reportedPost} isHighlighted />
            </Card>
          )}
          {report.details && (
            <Card aria-labelledby="system-details-title" className="flex flex-col gap-3">
              <CardTitle id="system-details-title">What the system found</CardTitle>
              <SystemDetails details={report.details} />
            </Card>
          )}
          <Card aria-labelledby="recent-posts-title" className="flex flex-col gap-3">
            <CardTitle id="recent-posts-title">
              {report.reportedUser ? `Recent posts by @${report.reportedUser.username}` : 'Recent posts'}
            </CardTitle>
            {otherRecent.length === 0 ? (
              <p className="text-sm text-ink-muted">No other recent posts.</p>
            ) : (
              <div className="flex flex-col gap-2">
                {otherRecent.map((p) => (
                  <PostQuote key={p.id} post={p} />
                ))}
              </div>
            )}
          </Card>
        </div>
        <div className="flex min-w-0 flex-col gap-5">
          <ActionPanel key={report.id} report={report} />
          <ModerationPanel report={report} />
          <Card aria-labelledby="audit-title" className="flex flex-col gap-3">
            <CardTitle id="audit-title">Audit trail</CardTitle>
            <AuditTrail actions={actions} />
          </Card>
          <Card aria-labelledby="related-title" className="flex flex-col gap-3">
            <CardTitle id="related-title">Related reports</CardTitle>
            <RelatedReports reports={relatedReports} />
          </Card>
        </div>
      </div>
    </div>
  );
};
