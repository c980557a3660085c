/**
 * Previews of an operation (`dryRun: true` in its body; CONTRACT "Orders"): the transport-neutral
 * half. The mechanism, a transaction that is always rolled back, is db/dry-run.ts `runDryRun`
 * (which services below this layer use directly: order placement previews); here is what a
 * handler and the core need of it.
 */
import 'server-only';
import { runDryRun } from '@/db/dry-run';

/**
 * A handler's call of a previewable operation: fn itself, or with `dryRun` its dry run, answered
 * with `dryRun: true` beside exactly what the real call would answer (errors included).
 */
export async function runOrPreview<T extends object>(dryRun: boolean | undefined, fn: () => Promise<T>): Promise<T & { dryRun?: true }> {
  if (!dryRun) return fn();
  return { ...(await runDryRun(fn)), dryRun: true as const };
}

/**
 * Whether a validated body asks for a dry run (the `dryRun` field every previewable operation's
 * body declares). The core then skips the call's Idempotency-Key: a preview stores no answer under
 * the key and replays none, so the real call with the same key afterwards does the real thing.
 */
export function isDryRunBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { dryRun?: unknown }).dryRun === true;
}
