'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cn } from '@/components/ui/cn';
import { LogoMark } from '@/components/ui/icons';
import { AccountSummary } from './account-summary';
import { NAV_ITEMS, isActivePath } from './nav-items';

/** Desktop navigation: a sticky left column (hidden below md). */
export const Sidebar = () => {
  const pathname = usePathname();
  return (
    <aside className="sticky top-0 hidden h-dvh w-64 shrink-0 flex-col border-r border-line bg-surface/50 px-4 py-6 md:flex lg:w-72">
      <Link href="/" className="mb-8 flex items-center gap-3 rounded-lg px-2 py-1">
        <LogoMark />
        <span className="text-lg font-semibold tracking-tight text-ink">Playmoney</span>
      </Link>
      <nav aria-label="Main" className="flex-1">
        <ul className="flex flex-col gap-1">
          {NAV_ITEMS.map((item) => {
            const isActive = isActivePath(pathname, item.href);
            return (
              <li key={item.href}>
                <Link
                  href={item.href}
                  aria-current={isActive ? 'page' : undefined}
                  className={cn(
                    'flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors',
                    isActive ? 'bg-accent-soft text-ink' : 'text-ink-muted hover:bg-elevated hover:text-ink',
                  )}
                >
                  <span className={isActive ? 'text-accent' : undefined}>{item.icon}</span>
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="border-t border-line pt-4">
        <AccountSummary />
      </div>
    </aside>
  );
};
