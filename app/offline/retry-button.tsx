'use client';

import { Button } from '@/components/ui/button';

/** Reloads the page the player asked for: the service worker tries the network again. */
export function RetryButton() {
  return <Button onClick={() => window.location.reload()}>Retry</Button>;
}
