import type { Metadata } from 'next';
import { DevelopersView } from '@/components/a2a/developers-view';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Agents & A2A' };

export default function DevelopersPage() {
  return (
    <>
      <PageHeader
        title="Agents & A2A"
        description="Play from code: agents and scripts call the game's markets, portfolio, payments and moderation over A2A (JSON-RPC 2.0), as the account they sign in with."
      />
      <DevelopersView />
    </>
  );
}
