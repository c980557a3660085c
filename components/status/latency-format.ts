/** Labels and figures of the status page (pure). */
import type { TGroupLatency } from './use-latency-status';

export const GROUP_LABELS: Record<TGroupLatency['group'], string> = {
  trade: 'Trading',
  read: 'Reads',
  social: 'Social',
  auth: 'Sign-in and account',
  admin: 'Administration',
  agent: 'Agents (A2A, MCP)',
  other: 'Other',
  sse: 'Live updates (SSE delivery)',
};

/** 12.3 ms, 850 ms, 1.2 s; an em dash when nothing was measured. */
export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  if (ms >= 1000) return `${Number((ms / 1000).toFixed(ms >= 10_000 ? 0 : 1))} s`;
  return `${ms >= 100 ? Math.round(ms) : Number(ms.toFixed(1))} ms`;
}

/**
 * A bar's width in percent on a logarithmic scale from 1 ms to `maxMs`, so that 5 ms and 5 s
 * both show. Zero for nothing measured.
 */
export function barPercent(ms: number | null, maxMs: number): number {
  if (ms === null || ms <= 0) return 0;
  const top = Math.log10(Math.max(maxMs, 10));
  return Math.max(2, Math.min(100, (Math.log10(Math.max(ms, 1)) / top) * 100));
}

export type TVerdict = { tone: 'up' | 'down' | 'neutral'; label: string };

export function verdictOf(g: Pick<TGroupLatency, 'met' | 'target' | 'count'>): TVerdict {
  if (!g.target) return { tone: 'neutral', label: 'No target' };
  if (g.met === null) return { tone: 'neutral', label: 'No data' };
  return g.met ? { tone: 'up', label: 'Meets target' } : { tone: 'down', label: 'Misses target' };
}

export function targetText(target: TGroupLatency['target']): string {
  if (!target) return '—';
  const parts = [target.p50Ms !== null ? `p50 < ${formatMs(target.p50Ms)}` : null, target.p99Ms !== null ? `p99 < ${formatMs(target.p99Ms)}` : null];
  return parts.filter(Boolean).join(', ');
}
