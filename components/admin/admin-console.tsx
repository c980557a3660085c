'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { LinkButton } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { useConsoleRole } from '@/lib/client/queries/admin';
import { describeError } from '@/lib/client/queries/errors';

/** A shield: the console's mark in the navigation. */
export const ShieldIcon = ({ className = 'size-5' }: { className?: string }) => (
  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" className={className}>
    <path d="M12 3 5 6v5.5c0 4.3 2.9 8.1 7 9.5 4.1-1.4 7-5.2 7-9.5V6z" />
    <path d="m9 12 2 2 4-4" />
  </svg>
);

const SECTIONS: readonly { href: string; label: string; isAdminOnly: boolean }[] = [
  { href: '/admin', label: 'Reports', isAdminOnly: false },
  { href: '/admin/moderation', label: 'Audit trail', isAdminOnly: false },
  { href: '/admin/users', label: 'Users', isAdminOnly: true },
  { href: '/admin/stats', label: 'Stats', isAdminOnly: true },
  { href: '/admin/trades', label: 'Trades', isAdminOnly: true },
  { href: '/admin/apps', label: 'Apps', isAdminOnly: true },
];

const isSectionActive = (pathname: string, href: string) =>
  href === '/admin' ? pathname === '/admin' || pathname.startsWith('/admin/reports') : pathname === href || pathname.startsWith(`${href}/`);

const ConsoleSkeleton = () => (
  <div role="status" aria-label="Loading the admin console" className="flex flex-col gap-4">
    <Skeleton className="h-9 w-56" />
    <Skeleton className="h-10 w-full" />
    <Skeleton className="h-64 w-full rounded-2xl" />
  </div>
);

/** Shown to a signed-in user who is neither an administrator nor a moderator (the server refuses them anyway). */
export const NotAllowed = ({ title = 'Not allowed', description }: { title?: string; description: string }) => (
  <EmptyState
    headingLevel={1}
    icon={<ShieldIcon />}
    title={title}
    description={description}
    action={
      <LinkButton href="/" variant="secondary">
        Back to the feed
      </LinkButton>
    }
  />
);

/**
 * The admin console's frame: only administrators and moderators get past it (others see a "not
 * allowed" page); its sections (Reports for both; Users, Stats, Trades and Apps for administrators).
 */
export const AdminConsole = ({ children }: { children: ReactNode }) => {
  const pathname = usePathname();
  const access = useConsoleRole();
  if (access.isPending) return <ConsoleSkeleton />;
  if (access.isSignedOut) {
    return <SignInPrompt headingLevel={1} title="Sign in to open the admin console" description="The admin console is for administrators and moderators." />;
  }
  if (access.failure) return <ErrorState message={describeError(access.failure)} onRetry={() => access.refetch()} isRetrying={access.isFetching} />;
  if (!access.role) {
    return <NotAllowed description="The admin console is for administrators and moderators. Your account has neither role." />;
  }
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Admin console</h1>
          <p className="mt-1 text-sm text-ink-muted">
            {access.role === 'admin' ? 'You are an administrator.' : 'You are a moderator: you work the report queue.'}
          </p>
        </div>
      </div>
      <nav aria-label="Admin sections" className="-mx-1 overflow-x-auto">
        <ul className="flex min-w-max gap-1 border-b border-line px-1">
          {SECTIONS.filter((s) => access.role === 'admin' || !s.isAdminOnly).map((s) => {
            const isActive = isSectionActive(pathname, s.href);
            return (
              <li key={s.href}>
                <Link
                  href={s.href}
                  aria-current={isActive ? 'page' : undefined}
                  className={cn(
                    '-mb-px inline-flex h-10 items-center border-b-2 px-3 text-sm font-medium transition-colors',
                    isActive ? 'border-accent text-ink' : 'border-transparent text-ink-muted hover:text-ink',
                  )}
                >
                  {s.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {children}
    </div>
  );
};

/** A section only administrators may open; a moderator sees why not (the console already turned everyone else away). */
export const AdminOnly = ({ children }: { children: ReactNode }) => {
  const { role } = useConsoleRole();
  if (role === null) return null;
  return role === 'admin' ? <>{children}</> : <NotAllowed title="Administrators only" description="Moderators work the report queue; this section is for administrators." />;
};

/** The Admin link of the main navigation, for administrators and moderators only (null for everyone else). */
export const useAdminNavItem = () => {
  const { role } = useConsoleRole();
  return role ? { href: '/admin', label: 'Admin', icon: <ShieldIcon /> } : null;
};
