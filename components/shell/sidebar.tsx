'use client';

import Link from 'next/link';
import { ConnectionIndicator } from '@/components/realtime/connection-indicator';
import { LogoMark } from '@/components/ui/icons';
import { AccountSummary } from './account-summary';
import { NavList } from './nav-list';

/** Desktop navigation: a sticky left column (hidden below md). */
export const Sidebar = () => (
  <aside className="sticky top-0 hidden h-dvh w-64 shrink-0 flex-col border-r border-line bg-surface/50 px-4 py-6 md:flex lg:w-72">
    <Link href="/" className="mb-8 flex items-center gap-3 rounded-lg px-2 py-1">
      <LogoMark />
      <span className="text-lg font-semibold tracking-tight text-ink">Playmoney</span>
    </Link>
    <nav aria-label="Main" className="-mx-1 min-h-0 flex-1 overflow-y-auto px-1">
      <NavList listClassName="flex flex-col gap-1" linkClassName="py-2.5" />
    </nav>
    <div className="flex flex-col gap-3 border-t border-line pt-4">
      <ConnectionIndicator className="px-2" />
      <AccountSummary />
    </div>
  </aside>
);
