import type { Metadata } from 'next';
import { RegistryBrowser } from '@/components/registry/registry-browser';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Registry' };

export default function RegistryPage() {
  return (
    <>
      <PageHeader title="Registry" description="Every player, NPC actor, agent and app in the game: who they are, their reputation and how to reach them." />
      <RegistryBrowser />
    </>
  );
}
