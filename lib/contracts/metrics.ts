/**
 * Published latency (lib/metrics): the Prometheus scrape of an instance, and the public status
 * of the last hour against the published targets (the /status page reads it).
 */
import { z } from 'zod';
import { ZSuccess, ZTimestamp } from './common';
import { defineEndpoint, type TEndpoint } from './endpoint';

export const METRICS_GROUPS = ['trade', 'read', 'social', 'auth', 'admin', 'agent', 'other', 'sse'] as const;

/**
 * GET /api/metrics: text, not JSON (Prometheus text exposition 0.0.4, `text/plain; version=0.0.4`).
 * Administrators with their usual token, or a scraper with `Authorization: Bearer <METRICS_TOKEN>`
 * (`auth: 'metrics'`: the wrapper admits either, with its rate limit and logging).
 */
export const metricsPrometheus = defineEndpoint({
  id: 'metrics.prometheus',
  method: 'GET',
  path: '/api/metrics',
  summary:
    'Prometheus text exposition (text/plain; version=0.0.4) of this instance: http_request_duration_seconds{route,group} ' +
    'histograms, http_requests_total{route,group,status_class}, sse_delivery_delay_seconds and process gauges. ' +
    'Administrators, or `Authorization: Bearer <METRICS_TOKEN>`',
  tag: 'system',
  auth: 'metrics',
  requires: ['read', 'admin'],
  response: z.string().describe('Prometheus text exposition format 0.0.4 (text/plain)'),
  envelope: false,
  responseType: 'text/plain',
  errors: ['FORBIDDEN'],
});

const ZMs = z.number().nullable().describe('milliseconds; null when nothing was measured');

export const metricsStatus = defineEndpoint({
  id: 'metrics.status',
  method: 'GET',
  path: '/api/status',
  summary: 'Published latency: p50 and p99 per route group and of SSE delivery over the last hour, every instance, against the targets',
  tag: 'system',
  auth: 'public',
  requires: ['read'],
  response: z.object({
    success: ZSuccess,
    windowMinutes: z.number().int(),
    source: z.enum(['redis', 'local']).describe('redis: every instance; local: the instance that answered'),
    generatedAt: ZTimestamp,
    groups: z.array(
      z.object({
        group: z.enum(METRICS_GROUPS),
        count: z.number().int().describe('requests (sse: deliveries) measured'),
        p50Ms: ZMs,
        p99Ms: ZMs,
        target: z.object({ p50Ms: ZMs, p99Ms: ZMs }).nullable().describe('the published targets; null: none'),
        met: z.boolean().nullable().describe('every target met; null: no target, or nothing measured'),
      }),
    ),
    targets: z.array(
      z.object({
        group: z.enum(METRICS_GROUPS),
        percentile: z.enum(['p50', 'p99']),
        thresholdMs: z.number(),
        valueMs: ZMs,
        met: z.boolean().nullable(),
      }),
    ),
  }),
});

export const metricsEndpoints: readonly TEndpoint[] = [metricsPrometheus, metricsStatus];
