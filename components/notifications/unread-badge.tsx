'use client';

/**
 * The unread-notifications count of the signed-in user, as the navigation shows it: a pill and
 * the accessible name of the links to the notifications (sidebar, phone menu and top bar).
 */
import { cn } from '@/components/ui/cn';
import { useUnreadCount } from '@/lib/client/queries/notifications';
import { useSession } from '@/lib/client/queries/users';

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
