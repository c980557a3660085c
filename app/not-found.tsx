import type { Metadata } from 'next';
import { LinkButton } from '@/components/ui/button';

export const metadata: Metadata = { title: 'Page not found' };

export default function NotFound() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <p className="font-mono text-sm font-semibold text-accent">404</p>
      <h1 className="mt-3 text-2xl font-semibold tracking-tight text-ink sm:text-3xl">This page is not on the board</h1>
      <p className="mt-3 text-sm leading-relaxed text-ink-muted sm:text-base">
        The link may be old, or the page may have moved. Nothing was lost: your balance is exactly where you left it.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <LinkButton href="/">Go to the feed</LinkButton>
        <LinkButton href="/profile" variant="secondary">
          Your profile
        </LinkButton>
      </div>
    </div>
  );
}
