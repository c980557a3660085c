'use client';

import Link from 'next/link';
import { Avatar } from '@/components/ui/avatar';
import { LinkButton } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { formatMoney } from '@/components/ui/format';
import { Skeleton } from '@/components/ui/skeleton';
import { useSession } from '@/lib/client/queries/users';

/** The sidebar's footer: who is signed in and their balance, or a way to sign in. */
export const AccountSummary = () => {
  const { user, isPending, isSignedOut } = useSession();
  if (isPending) {
    return (
      <div className="flex items-center gap-3 p-2" aria-label="Loading account" role="status">
        <Skeleton className="size-10 rounded-full" />
        <div className="flex flex-1 flex-col gap-2">
          <Skeleton className="h-3.5 w-24" />
          <Skeleton className="h-3 w-16" />
        </div>
      </div>
    );
  }
  if (!user) {
    return (
      <div className="rounded-xl border border-line bg-elevated/60 p-4">
        <p className="text-sm font-medium text-ink">{isSignedOut ? 'Trade with play money' : 'Account unavailable'}</p>
        <p className="mt-1 text-xs text-ink-muted">
          {isSignedOut ? 'Sign in to get your starting balance.' : 'We could not load your account right now.'}
        </p>
        <LinkButton href="/sign-in" size="sm" className="mt-3 w-full">
          Sign in
        </LinkButton>
      </div>
    );
  }
  return (
    <Link
      href="/profile"
      className="group flex items-center gap-3 rounded-xl p-2 transition-colors hover:bg-elevated"
      aria-label={`Your profile: @${user.username}, balance ${formatMoney(user.virtualBalance)}`}
    >
      <Avatar src={user.profileImageUrl} name={user.displayName || user.username} />
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm font-medium text-ink">@{user.username}</span>
        <span className="block text-xs text-ink-muted tabular-nums">{formatMoney(user.virtualBalance)}</span>
      </span>
    </Link>
  );
};

/** The phone's top-bar chip: balance linking to the wallet, or "Sign in". */
export const AccountChip = ({ className }: { className?: string }) => {
  const { user, isPending } = useSession();
  if (isPending) return <Skeleton className={cn('h-8 w-24 rounded-full', className)} />;
  if (!user) {
    return (
      <LinkButton href="/sign-in" size="sm" className={className}>
        Sign in
      </LinkButton>
    );
  }
  return (
    <Link
      href="/wallet"
      className={cn(
        'inline-flex h-8 items-center gap-2 rounded-full border border-line-strong bg-elevated pr-3 pl-1 text-sm font-medium text-ink tabular-nums',
        className,
      )}
      aria-label={`@${user.username}, balance ${formatMoney(user.virtualBalance)}. Open wallet`}
    >
      <Avatar src={user.profileImageUrl} name={user.displayName || user.username} size="sm" className="size-6 text-[10px]" />
      {formatMoney(user.virtualBalance)}
    </Link>
  );
};
