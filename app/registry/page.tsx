import type { Metadata } from 'next';
import { RegistryBrowser } from '@/components/registry/registry-browser';
import { PageHeader } from '@/components/ui/page-header';
import { registryFilterOf } from '@/lib/client/queries/registry';

export const metadata: Metadata = { title: 'Registry' };

/** `/registry?type=agent` opens on that type (the developer page links its agents there). */
export default async function RegistryPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { type } = await searchParams;
  return (
    <>
      <PageHeader title="Registry" description="Every player, NPC actor, agent and app in the game: who they are, their reputation and how to reach them." />
      <RegistryBrowser initialType={registryFilterOf(type)} />
    </>
  );
}
