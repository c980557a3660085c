import type { Metadata } from 'next';
import { LatencyBoard } from '@/components/status/latency-board';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Status', description: 'Published latency: p50 and p99 per kind of request over the last hour, against our targets.' };

export default function StatusPage() {
  return (
    <>
      <PageHeader
        title="Status"
        description="How fast the service answers: p50 and p99 over the last hour, against the targets we publish (trades: p50 under 50 ms, p99 under 250 ms; live updates: p99 under 1 s)."
      />
      <LatencyBoard />
    </>
  );
}
