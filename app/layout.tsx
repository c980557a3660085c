import './globals.css';
import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import { ServiceWorkerRegistration } from '@/components/pwa/service-worker-registration';
import { BreakingNewsTicker } from '@/components/realtime/breaking-news-ticker';
import { BottomTabs, MobileHeader } from '@/components/shell/mobile-nav';
import { Sidebar } from '@/components/shell/sidebar';
import { siteMetadataBase } from '@/lib/og/metadata';

const baseMetadata: Metadata = {
  title: { default: 'Playmoney: social trading with play money', template: '%s · Playmoney' },
  description: 'Trade prediction markets and perpetuals, back NPC-run pools and follow other players, all with virtual currency.',
  applicationName: 'Playmoney',
};

/**
 * metadataBase (absolute Open Graph and share-image URLs): PUBLIC_BASE_URL when set, else the
 * origin this request came to (lib/og/metadata.ts). Read per request, never at build.
 */
export async function generateMetadata(): Promise<Metadata> {
  await connection();
  try {
    return { ...baseMetadata, metadataBase: await siteMetadataBase() };
  } catch {
    return baseMetadata; // a Host header that is no origin: relative URLs stay relative
  }
}

export const viewport: Viewport = {
  themeColor: '#0b0d12',
  colorScheme: 'dark',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: its scripts carry the nonce of that request's
  // Content-Security-Policy (proxy.ts), which a page prerendered at build time could not.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-dvh">
        <a
          href="#main"
          className="sr-only z-50 rounded-lg bg-accent px-4 py-2 text-sm font-semibold text-canvas focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:px-4 focus:py-2"
        >
          Skip to content
        </a>
        <Providers>
          <div className="md:flex">
            <Sidebar />
            <div className="min-w-0 flex-1">
              <MobileHeader />
              <BreakingNewsTicker />
              <main id="main" tabIndex={-1} className="mx-auto w-full max-w-5xl px-4 pt-6 pb-28 outline-none sm:px-6 md:px-10 md:pt-10 md:pb-16">
                {children}
              </main>
            </div>
          </div>
          <BottomTabs />
          <ServiceWorkerRegistration />
        </Providers>
      </body>
    </html>
  );
}
