'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { chatsLinkName, useChatsUnreadTotal } from '@/components/chats/chats-unread';
import { UnreadBadge } from '@/components/notifications/unread-badge';
import { ConnectionIndicator } from '@/components/realtime/connection-indicator';
import { cn } from '@/components/ui/cn';
import { CloseIcon, LogoMark, MenuIcon } from '@/components/ui/icons';
import { AccountChip } from './account-summary';
import { MobileNotificationsLink } from './mobile-notifications-link';
import { TAB_ITEMS, isActivePath } from './nav-items';
import { NavList } from './nav-list';

/** Phone top bar: logo, balance (or Sign in) and a menu button that opens every destination. */
export const MobileHeader = () => {
  const pathname = usePathname();
  // The menu remembers the page it was opened on, so any navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const isOpen = openOn === pathname;
  const setIsOpen = (open: boolean) => setOpenOn(open ? pathname : null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpenOn(null);
      buttonRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [isOpen]);

  return (
    <header className="sticky top-0 z-30 border-b border-line bg-canvas/90 backdrop-blur md:hidden">
      <div className="flex h-14 items-center gap-3 px-4">
        <div className="relative flex items-center">
          <Link href="/" className="flex items-center gap-2 rounded-lg">
            <LogoMark className="size-7" />
            <span className="font-semibold tracking-tight text-ink">Playmoney</span>
          </Link>
          {/* A status dot on the logo's corner: the bar has no room for words on a phone. */}
          <ConnectionIndicator variant="compact" className="absolute -bottom-1 left-4" />
        </div>
        <AccountChip className="ml-auto" />
        <MobileNotificationsLink />
        <button
          ref={buttonRef}
          type="button"
          className="-mr-1 inline-flex size-10 items-center justify-center rounded-lg text-ink-muted hover:bg-elevated hover:text-ink"
          aria-expanded={isOpen}
          aria-controls="mobile-menu"
          aria-label={isOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setIsOpen(!isOpen)}
        >
          {isOpen ? <CloseIcon /> : <MenuIcon />}
        </button>
      </div>
      <nav id="mobile-menu" aria-label="Main" hidden={!isOpen} className="border-t border-line bg-surface px-2 py-2 shadow-2xl">
        <NavList listClassName="grid grid-cols-2 gap-1" linkClassName="py-3" />
      </nav>
    </header>
  );
};

/** Phone bottom tab bar with the five main destinations. */
export const BottomTabs = () => {
  const pathname = usePathname();
  const chatsUnread = useChatsUnreadTotal();
  return (
    <nav
      aria-label="Tabs"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-line bg-canvas/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
    >
      <ul className="mx-auto grid max-w-md grid-cols-5">
        {TAB_ITEMS.map((item) => {
          const isActive = isActivePath(pathname, item.href);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={isActive ? 'page' : undefined}
                aria-label={item.href === '/chats' ? chatsLinkName(chatsUnread) : undefined}
                className={cn(
                  'relative flex h-16 flex-col items-center justify-center gap-1 text-[11px] font-medium',
                  isActive ? 'text-accent' : 'text-ink-muted hover:text-ink',
                )}
              >
                {item.icon}
                {item.label}
                {item.href === '/chats' && <UnreadBadge count={chatsUnread} className="absolute top-2 left-1/2 ml-2" />}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
};
