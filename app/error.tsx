'use client';

import { useEffect } from 'react';
import { Button, LinkButton } from '@/components/ui/button';

export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest = error instanceof Error && 'digest' in error && typeof error.digest === 'string' ? error.digest : undefined;

  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <p className="font-mono text-sm font-semibold text-down">Error</p>
      <h1 className="mt-3 text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Something went wrong on this page</h1>
      <p className="mt-3 text-sm leading-relaxed text-ink-muted sm:text-base">
        It is probably temporary. Try again, and if it keeps happening, head back to the feed.
      </p>
      {digest && <p className="mt-2 font-mono text-xs text-ink-faint">Reference: {digest}</p>}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button onClick={() => retry()}>Try again</Button>
        <LinkButton href="/" variant="secondary">
          Go to the feed
        </LinkButton>
      </div>
    </div>
  );
}
