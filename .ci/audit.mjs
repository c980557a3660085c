// CI's dependency audit: `npm audit --omit=dev --audit-level=high` over the production
// dependencies. Fails on a high or critical advisory; an advisory service that cannot be reached
// (no network, a registry mirror without the audit endpoint, an outage) is a warning, not a
// failure, so CI on an offline machine still runs. Any other npm error (no lock file, …) fails.
// Extra arguments go to npm (e.g. --registry=… to try the unreachable case).
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** A failure of the advisory request itself: the registry did not answer, or not with advisories. */
const UNREACHABLE = /audit endpoint returned an error|request to \S+ failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|socket hang up|network/i;

/**
 * What an `npm audit --json` run means: { verdict: 'pass' | 'fail' | 'unreachable', message }.
 * `stdout` is its JSON; `stderr` its log lines.
 */
export const classifyAudit = (stdout, stderr = '') => {
  let report;
  try {
    report = JSON.parse(stdout);
  } catch {
    report = undefined;
  }
  const counts = report?.metadata?.vulnerabilities;
  if (counts && typeof counts === 'object') {
    const high = Number(counts.high ?? 0);
    const critical = Number(counts.critical ?? 0);
    const names = Object.entries(report.vulnerabilities ?? {})
      .filter(([, v]) => v?.severity === 'high' || v?.severity === 'critical')
      .map(([name, v]) => `${name} (${v.severity})`);
    if (high + critical > 0) return { verdict: 'fail', message: `${high} high and ${critical} critical advisories in production dependencies: ${names.join(', ')}` };
    return { verdict: 'pass', message: `no high or critical advisories (${Number(counts.total ?? 0)} below that level)` };
  }
  const said = `${report?.message ?? ''} ${report?.statusCode ?? ''} ${stderr}`;
  // A network error, or an HTTP error status from the advisory endpoint (a mirror without it: 404, 405).
  if (UNREACHABLE.test(said) || typeof report?.statusCode === 'number') {
    return { verdict: 'unreachable', message: `the advisory service could not be reached: ${(report?.message ?? stderr).trim().split('\n')[0]}` };
  }
  return { verdict: 'fail', message: `npm audit did not run: ${(report?.message ?? report?.error?.summary ?? stderr).toString().trim().split('\n').slice(-3).join(' ')}` };
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const run = spawnSync('npm', ['audit', '--omit=dev', '--audit-level=high', '--json', ...process.argv.slice(2)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 180_000,
  });
  const { verdict, message } = classifyAudit(run.stdout ?? '', `${run.stderr ?? ''}${run.error ? ` ${run.error.message}` : ''}`);
  if (verdict === 'unreachable') {
    console.log(`warning: npm audit skipped, ${message}`);
    process.exit(0);
  }
  console.log(`npm audit: ${message}`);
  process.exit(verdict === 'pass' ? 0 : 1);
}
