/**
 * The Prometheus text exposition (format 0.0.4) of this process's record (GET /api/metrics):
 * one scrape per instance; counters and histograms only grow while the process lives. Buckets are
 * the fine histogram (./histogram.ts) summed up to the usual `le` bounds: a bucket counts under
 * `le` once its upper bound is at or below it. Pure.
 */
import { countAtOrBelow, type THistogram } from './histogram';
import { STATUS_CLASSES, type TRouteStats } from './recorder';

/** `le` bounds, in seconds. */
export const LE_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const;

const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labels = (l: Record<string, string>) => `{${Object.entries(l).map(([k, v]) => `${k}="${escape(v)}"`).join(',')}}`;
const num = (v: number) => (Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(12))));

const histogramLines = (name: string, l: Record<string, string>, h: THistogram, out: string[]) => {
  for (const le of LE_SECONDS) out.push(`${name}_bucket${labels({ ...l, le: String(le) })} ${num(countAtOrBelow(h, le * 1000))}`);
  out.push(`${name}_bucket${labels({ ...l, le: '+Inf' })} ${num(h.count)}`);
  out.push(`${name}_sum${labels(l)} ${num(h.sumMicros / 1e6)}`);
  out.push(`${name}_count${labels(l)} ${num(h.count)}`);
};

export type TProcessFacts = { startedAtMs: number; nowMs: number; residentBytes: number; heapUsedBytes: number };

export function formatPrometheus(routes: Iterable<TRouteStats>, sse: THistogram, proc: TProcessFacts): string {
  const sorted = [...routes].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const out: string[] = [];
  out.push('# HELP http_request_duration_seconds Time from the API wrapper\'s entry to its Response, per endpoint (route: the endpoint id).');
  out.push('# TYPE http_request_duration_seconds histogram');
  for (const r of sorted) histogramLines('http_request_duration_seconds', { route: r.id, group: r.group }, r.histogram, out);
  out.push('# HELP http_requests_total Answers per endpoint and status class.');
  out.push('# TYPE http_requests_total counter');
  for (const r of sorted) {
    r.statuses.forEach((n, i) => {
      if (n > 0) out.push(`http_requests_total${labels({ route: r.id, group: r.group, status_class: STATUS_CLASSES[i]! })} ${num(n)}`);
    });
  }
  out.push('# HELP sse_delivery_delay_seconds From an event\'s logging to its hand-off to an SSE subscriber, per subscriber.');
  out.push('# TYPE sse_delivery_delay_seconds histogram');
  histogramLines('sse_delivery_delay_seconds', {}, sse, out);
  out.push('# HELP process_start_time_seconds Start time of the process since the Unix epoch, in seconds.');
  out.push('# TYPE process_start_time_seconds gauge');
  out.push(`process_start_time_seconds ${Math.floor(proc.startedAtMs / 1000)}`);
  out.push('# HELP process_uptime_seconds Seconds since the metrics record started.');
  out.push('# TYPE process_uptime_seconds gauge');
  out.push(`process_uptime_seconds ${num(Math.max(0, proc.nowMs - proc.startedAtMs) / 1000)}`);
  out.push('# HELP process_resident_memory_bytes Resident memory size in bytes.');
  out.push('# TYPE process_resident_memory_bytes gauge');
  out.push(`process_resident_memory_bytes ${proc.residentBytes}`);
  out.push('# HELP nodejs_heap_used_bytes V8 heap in use, in bytes.');
  out.push('# TYPE nodejs_heap_used_bytes gauge');
  out.push(`nodejs_heap_used_bytes ${proc.heapUsedBytes}`);
  return `${out.join('\n')}\n`;
}
