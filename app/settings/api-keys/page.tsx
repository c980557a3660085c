import type { Metadata } from 'next';
import Link from 'next/link';
import { ApiKeysSettings } from '@/components/api-keys/api-keys-settings';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'API keys' };

export default function ApiKeysPage() {
  return (
    <div className="mx-auto max-w-2xl">
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-ink-muted">
        <Link href="/settings" className="hover:text-ink hover:underline">
          Settings
        </Link>
      </nav>
      <PageHeader
        title="API keys"
        description="A key lets a bot or an AI agent act as you over REST, A2A and MCP, held to the scopes and caps you give it."
      />
      <ApiKeysSettings />
    </div>
  );
}
