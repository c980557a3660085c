/** The answers of GET /api/metrics (lib/contracts/metrics.ts): this process's record as Prometheus text. */
import 'server-only';
import { formatPrometheus } from './prometheus';
import { metricsState } from './recorder';

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export function prometheusText(now = Date.now()): string {
  const st = metricsState();
  const mem = process.memoryUsage();
  return formatPrometheus(st.routes.values(), st.sse, {
    startedAtMs: now - process.uptime() * 1000,
    nowMs: now,
    residentBytes: mem.rss,
    heapUsedBytes: mem.heapUsed,
  });
}

export function prometheusAnswer(): Response {
  return new Response(prometheusText(), { status: 200, headers: { 'Content-Type': PROMETHEUS_CONTENT_TYPE, 'Cache-Control': 'no-store' } });
}
