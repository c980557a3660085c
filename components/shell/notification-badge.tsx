'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cn } from '@/components/ui/cn';
import { BellIcon } from '@/components/ui/icons';
import { useUnreadCount } from '@/lib/client/queries/notifications';
import { useSession } from '@/lib/client/queries/users';
import { isActivePath } from './nav-items';

/** The signed-in user's unread notifications (polled); 0 while signed out or unknown. */
export const useNavUnreadCount = () => {
  const session = useSession();
  const unread = useUnreadCount({ isEnabled: session.isSignedIn });
  return session.isSignedIn ? (unread.data ?? 0) : 0;
};

/** "Notifications, 3 unread": the accessible name of a link to the notifications. */
export const notificationsLinkName = (count: number) => (count > 0 ? `Notifications, ${count} unread` : 'Notifications');

/** The count in a small pill (visual only: the link's name says it). */
export const UnreadBadge = ({ count, className }: { count: number; className?: string }) =>
  count > 0 ? (
    <span
      aria-hidden="true"
      data-testid="unread-badge"
      className={cn('inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-down px-1.5 text-[11px] leading-none font-semibold text-white tabular-nums', className)}
    >
      {count > 99 ? '99+' : count}
    </span>
  ) : null;

/** The phone top bar's bell, with the unread count. */
export const MobileNotificationsLink = () => {
  const pathname = usePathname();
  const count = useNavUnreadCount();
  const isActive = isActivePath(pathname, '/notifications');
  return (
    <Link
      href="/notifications"
      aria-label={notificationsLinkName(count)}
      aria-current={isActive ? 'page' : undefined}
      className={cn('relative inline-flex size-10 items-center justify-center rounded-lg hover:bg-elevated hover:text-ink', isActive ? 'text-accent' : 'text-ink-muted')}
    >
      <BellIcon />
      <UnreadBadge count={count} className="absolute top-0.5 right-0 h-4 min-w-4 px-1 text-[10px]" />
    </Link>
  );
};
