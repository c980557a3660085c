'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { notificationsLinkName, UnreadBadge, useNavUnreadCount } from '@/components/notifications/unread-badge';
import { cn } from '@/components/ui/cn';
import { BellIcon } from '@/components/ui/icons';
import { isActivePath } from './nav-items';

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
