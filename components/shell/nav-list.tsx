'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useAdminNavItem } from '@/components/admin/admin-console';
import { chatsLinkName, useChatsUnreadTotal } from '@/components/chats/chats-unread';
import { UnreadBadge, notificationsLinkName, useNavUnreadCount } from '@/components/notifications/unread-badge';
import { cn } from '@/components/ui/cn';
import { NAV_ITEMS, isActivePath } from './nav-items';

/** Every destination as a list of links; the sidebar stacks it, the phone menu grids it. */
export const NavList = ({ listClassName, linkClassName }: { listClassName: string; linkClassName: string }) => {
  const pathname = usePathname();
  const unread = useNavUnreadCount();
  const chatsUnread = useChatsUnreadTotal();
  const adminItem = useAdminNavItem();
  return (
    <ul className={listClassName}>
      {[...NAV_ITEMS, ...(adminItem ? [adminItem] : [])].map((item) => {
        const isActive = isActivePath(pathname, item.href);
        const isNotifications = item.href === '/notifications';
        const isChats = item.href === '/chats';
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={isActive ? 'page' : undefined}
              aria-label={isNotifications ? notificationsLinkName(unread) : isChats ? chatsLinkName(chatsUnread) : undefined}
              className={cn(
                'flex items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors',
                linkClassName,
                isActive ? 'bg-accent-soft text-ink' : 'text-ink-muted hover:bg-elevated hover:text-ink',
              )}
            >
              <span className={isActive ? 'text-accent' : undefined}>{item.icon}</span>
              {item.label}
              {isNotifications && <UnreadBadge count={unread} className="ml-auto" />}
              {isChats && <UnreadBadge count={chatsUnread} className="ml-auto" />}
            </Link>
          </li>
        );
      })}
    </ul>
  );
};
