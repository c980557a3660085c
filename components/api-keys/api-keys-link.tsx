import Link from 'next/link';
import { Card } from '@/components/ui/card';

/** The settings page's entry: what keys are for, and the link to manage them. */
export const ApiKeysLink = () => (
  <Card aria-labelledby="api-keys-link-title">
    <h2 id="api-keys-link-title" className="text-base font-semibold tracking-tight text-ink">
      API keys
    </h2>
    <p className="mt-1 text-sm text-ink-muted">Let your bots and AI agents trade for you, with scopes and spending caps you set.</p>
    <Link
      href="/settings/api-keys"
      className="mt-4 flex flex-col rounded-xl border border-line bg-elevated px-4 py-3 transition-colors hover:border-line-strong focus-visible:ring-2 focus-visible:ring-accent/50 focus-visible:outline-none"
    >
      <span className="text-sm font-medium text-ink">Manage API keys →</span>
      <span className="mt-0.5 text-xs text-ink-muted">Create a key, see when each was last used, revoke one.</span>
    </Link>
  </Card>
);
