'use client';

import Link from 'next/link';
import { useMemo } from 'react';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { Avatar } from '@/components/ui/avatar';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatCount, formatMoney, formatShortDate } from '@/components/ui/format';
import { UserPlusIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import {
  FEE_SOURCES,
  toFeeChartDays,
  useReferralCode,
  useReferralFees,
  useReferrals,
  type TReferral,
  type TReferralFees,
} from '@/lib/client/queries/referrals';
import { useSession } from '@/lib/client/queries/users';
import { profileHref } from '@/lib/users/links';
import { FeesChart } from './fees-chart';
import { ReferralLink } from './referral-link';

const FEE_DAYS = 30;

const CardSkeleton = ({ label, rows = 2 }: { label: string; rows?: number }) => (
  <Card role="status" aria-label={label} className="flex flex-col gap-3">
    <Skeleton className="h-5 w-40" />
    {Array.from({ length: rows }, (_, i) => (
      <Skeleton key={i} className="h-10 w-full" />
    ))}
  </Card>
);

const Stat = ({ label, value, testId }: { label: string; value: string; testId?: string }) => (
  <div className="flex flex-col-reverse gap-1 rounded-xl border border-line bg-elevated px-4 py-3">
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className="text-2xl font-semibold text-ink tabular-nums" data-testid={testId}>
      {value}
    </dd>
  </div>
);

const LinkCard = ({ userId }: { userId: string }) => {
  const code = useReferralCode(userId);
  if (code.isPending) return <CardSkeleton label="Loading your referral link" />;
  if (code.isError) return <ErrorState message={describeError(code.error)} onRetry={() => code.refetch()} isRetrying={code.isFetching} />;
  return (
    <Card aria-labelledby="referral-link-title" className="flex flex-col gap-5">
      <div>
        <CardTitle id="referral-link-title">Invite players</CardTitle>
        <CardDescription>
          Your code is <span className="font-mono text-ink">{code.data.referralCode}</span>. Your first referral earns 100 points, and you earn a
          share of the trading fees of everyone you refer.
        </CardDescription>
      </div>
      <ReferralLink url={code.data.referralUrl} />
      <dl className="grid grid-cols-2 gap-3">
        <Stat label="Players referred" value={formatCount(code.data.referralCount)} testId="referral-count" />
        <Stat label="Fees earned" value={formatMoney(code.data.totalFeesEarned)} testId="referral-fees-total" />
      </dl>
    </Card>
  );
};

const ReferredPlayer = ({ r }: { r: TReferral }) => (
  <li className="flex items-center justify-between gap-3 border-t border-line px-5 py-3.5 first:border-t-0 sm:px-6">
    <div className="flex min-w-0 items-center gap-3">
      <Avatar src={r.referredUser.profileImageUrl} name={r.referredUser.displayName || r.referredUser.username} />
      <div className="min-w-0">
        <Link href={profileHref(r.referredUser)} className="block truncate text-sm font-medium text-ink hover:underline">
          {r.referredUser.displayName || r.referredUser.username}
        </Link>
        <p className="truncate text-xs text-ink-muted">
          @{r.referredUser.username} · joined <time dateTime={r.completedAt}>{formatShortDate(r.completedAt)}</time>
        </p>
      </div>
    </div>
    <div className="shrink-0 text-right">
      <p className="text-sm font-medium text-ink tabular-nums">{formatMoney(r.feesEarned)}</p>
      <p className="text-xs text-ink-faint">fees earned</p>
    </div>
  </li>
);

const PlayersCard = ({ userId }: { userId: string }) => {
  const list = useReferrals(userId);
  if (list.isPending) return <CardSkeleton label="Loading the players you referred" rows={3} />;
  if (list.isError) return <ErrorState message={describeError(list.error)} onRetry={() => list.refetch()} isRetrying={list.isFetching} />;
  if (list.data.referrals.length === 0) {
    return (
      <EmptyState
        icon={<UserPlusIcon />}
        title="No referrals yet"
        description="Share your link. Players who sign up through it appear here with the fees they earn you."
      />
    );
  }
  return (
    <Card aria-labelledby="referred-title" isPadded={false} className="overflow-hidden">
      <div className="flex items-baseline justify-between px-5 pt-5 pb-4 sm:px-6">
        <CardTitle id="referred-title">Players you referred</CardTitle>
        <span className="text-xs text-ink-faint">{formatCount(list.data.totalReferrals)} in all</span>
      </div>
      <ul aria-label="Players you referred" className="border-t border-line">
        {list.data.referrals.map((r) => (
          <ReferredPlayer key={r.id} r={r} />
        ))}
      </ul>
    </Card>
  );
};

const FeesTable = ({ fees }: { fees: TReferralFees }) => {
  const days = [...fees.byDay].sort((a, b) => b.day.localeCompare(a.day));
  return (
    <details className="group rounded-lg border border-line">
      <summary className="cursor-pointer px-4 py-2.5 text-sm font-medium text-ink-muted hover:text-ink">Show the numbers as a table</summary>
      <div className="overflow-x-auto border-t border-line">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Referral fees by day, the last {FEE_DAYS} days, newest first</caption>
          <thead className="text-xs text-ink-faint">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">
                Day (UTC)
              </th>
              {FEE_SOURCES.map((s) => (
                <th key={s.key} scope="col" className="px-4 py-2 text-right font-medium">
                  {s.label}
                </th>
              ))}
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {days.length === 0 && (
              <tr className="border-t border-line">
                <td colSpan={FEE_SOURCES.length + 2} className="px-4 py-3 text-ink-muted">
                  No fees in the last {FEE_DAYS} days.
                </td>
              </tr>
            )}
            {days.map((d) => (
              <tr key={d.day} className="border-t border-line tabular-nums">
                <th scope="row" className="px-4 py-2 font-normal text-ink-muted">
                  {d.day}
                </th>
                {FEE_SOURCES.map((s) => (
                  <td key={s.key} className="px-4 py-2 text-right">
                    {formatMoney(d.bySource[s.key])}
                  </td>
                ))}
                <td className="px-4 py-2 text-right font-medium text-ink">{formatMoney(d.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
};

const FeesCard = ({ userId }: { userId: string }) => {
  const fees = useReferralFees(userId, FEE_DAYS);
  const chartDays = useMemo(
    () => (fees.data ? toFeeChartDays(fees.data.byDay, FEE_DAYS, new Date().toISOString().slice(0, 10)) : []),
    [fees.data],
  );
  if (fees.isPending) return <CardSkeleton label="Loading your referral fees" rows={3} />;
  if (fees.isError) return <ErrorState message={describeError(fees.error)} onRetry={() => fees.refetch()} isRetrying={fees.isFetching} />;
  const f = fees.data;
  const summary = `Referral fees earned per day over the last ${FEE_DAYS} days, stacked by source: ${formatMoney(f.totalFeesEarned)} in all (${FEE_SOURCES.map((s) => `${s.label} ${formatMoney(f.bySource[s.key])}`).join(', ')}).`;
  return (
    <Card aria-labelledby="fees-title" className="flex flex-col gap-5">
      <div>
        <CardTitle id="fees-title">Fees earned, last {FEE_DAYS} days</CardTitle>
        <CardDescription>Your share of the trading fees paid by the players you referred.</CardDescription>
      </div>
      <dl className="grid grid-cols-3 gap-3">
        {FEE_SOURCES.map((s) => (
          <div key={s.key} className="flex flex-col-reverse gap-0.5">
            <dt className="text-xs text-ink-muted">{s.label}</dt>
            <dd className="text-base font-semibold text-ink tabular-nums">{formatMoney(f.bySource[s.key])}</dd>
          </div>
        ))}
      </dl>
      <FeesChart days={chartDays} label={summary} />
      <FeesTable fees={f} />
    </Card>
  );
};

/** The referrals page: the link to share, the players it brought and the fees they earned you. */
export const ReferralsView = () => {
  const session = useSession();
  if (session.isPending) return <CardSkeleton label="Loading" rows={3} />;
  if (session.isSignedOut) return <SignInPrompt description="Sign in to get your referral link and see who joined through it." />;
  if (!session.user) return <ErrorState message={describeError(session.failure)} onRetry={() => session.refetch()} isRetrying={session.isFetching} />;
  const userId = session.user.id;
  return (
    <div className="flex flex-col gap-6">
      <LinkCard userId={userId} />
      <PlayersCard userId={userId} />
      <FeesCard userId={userId} />
    </div>
  );
};
