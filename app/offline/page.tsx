import type { Metadata } from 'next';
import { RetryButton } from './retry-button';

export const metadata: Metadata = { title: 'Offline', robots: { index: false } };

/**
 * What the service worker (public/sw.js) shows when a page cannot load because the device is
 * offline and no earlier copy of that page is cached. It is cached at install, so it renders
 * without a network; it reads nothing.
 */
export default function OfflinePage() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <p className="font-mono text-sm font-semibold text-accent">Offline</p>
      <h1 className="mt-3 text-2xl font-semibold tracking-tight text-ink sm:text-3xl">You are offline</h1>
      <p className="mt-3 text-sm leading-relaxed text-ink-muted sm:text-base">
        This page needs a connection. Nothing was lost: your balance and positions are exactly where you left them.
      </p>
      <div className="mt-8">
        <RetryButton />
      </div>
    </div>
  );
}
