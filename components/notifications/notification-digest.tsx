'use client';

/**
 * The digest page: the notifications the player asked to receive in the daily digest, of the last
 * week, grouped by kind and by what they are about ("3 orders filled in “…”"), newest first, each
 * with its latest title and message and a link to what it is about.
 */
import Link from 'next/link';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { BellIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';
import { RelativeTime } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { useNotificationDigest } from '@/lib/client/queries/notifications';
import { useSession } from '@/lib/client/queries/users';

const DAYS = 7;

const linkClass = 'text-accent underline underline-offset-2 hover:no-underline';

export const NotificationDigest = () => {
  const session = useSession();
  const digest = useNotificationDigest(DAYS, { isEnabled: session.isSignedIn });

  const header = (
    <PageHeader
      title="Your digest"
      description={
        <>
          The last {DAYS} days of the kinds you keep for the daily digest, grouped.{' '}
          <Link href="/settings/notifications" className={linkClass}>
            Choose which kinds
          </Link>{' '}
          ·{' '}
          <Link href="/notifications" className={linkClass}>
            All notifications
          </Link>
        </>
      }
    />
  );

  if (session.isPending || (session.isSignedIn && digest.isPending)) {
    return (
      <>
        {header}
        <div role="status" aria-label="Loading the digest" className="flex flex-col gap-2">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-16 w-full rounded-xl" />
          ))}
        </div>
      </>
    );
  }
  if (!session.isSignedIn) {
    return (
      <>
        {header}
        <SignInPrompt icon={<BellIcon />} title="Sign in to see your digest" description="Kinds of notifications you keep for the daily digest are gathered here." />
      </>
    );
  }
  if (digest.isError) {
    return (
      <>
        {header}
        <ErrorState message={describeError(digest.error)} onRetry={() => digest.refetch()} isRetrying={digest.isFetching} />
      </>
    );
  }
  const groups = digest.data?.groups ?? [];
  return (
    <>
      {header}
      {groups.length === 0 ? (
        <EmptyState
          icon={<BellIcon />}
          title="Nothing in your digest"
          description="Set a kind to “Daily digest” in the notification settings and it gathers here instead of the notifications list."
        />
      ) : (
        <ul aria-label="Digest" className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface">
          {groups.map((g) => {
            const body = (
              <>
                <span className="flex items-baseline gap-2">
                  <span className="text-sm font-semibold text-ink">
                    <span className="sr-only">{g.label}: </span>
                    {g.summary}
                  </span>
                  <RelativeTime iso={g.latestAt} className="ml-auto shrink-0 text-xs text-ink-faint" />
                </span>
                <span className="mt-0.5 block text-sm text-ink-muted">
                  {g.count > 1 ? 'Latest: ' : ''}
                  {g.latestTitle}. {g.latestMessage}
                </span>
              </>
            );
            return (
              <li key={`${g.kind}|${g.link ?? ''}`} data-kind={g.kind}>
                {g.link ? (
                  <Link href={g.link} className="block px-4 py-3.5 transition-colors hover:bg-elevated">
                    {body}
                  </Link>
                ) : (
                  <div className="px-4 py-3.5">{body}</div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
};
