/**
 * The OpenAPI document lints clean under Redocly's recommended rules, with the same Redocly CLI
 * an outside reviewer runs (`npx redocly lint`), on the document as /api/openapi.json serves it:
 *   - with the repo's redocly.yaml: no errors and no warnings;
 *   - with the bare recommended rules (no config at all): no errors, and the only warnings are
 *     the overlapping paths that the specification fixes and the document explains (redocly.yaml).
 * Runs the CLI's own binary (not the older openapi-core that openapi-typescript pulls in), so the
 * rules are the ones a reviewer sees. No network.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@/lib/openapi/document';

const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'node_modules/@redocly/cli/bin/cli.js');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pm-openapi-'));
const file = path.join(dir, 'openapi.json');
fs.writeFileSync(file, JSON.stringify(buildOpenApiDocument('1.0.0')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type TLint = { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string; message: string }[] };

/** Runs `redocly lint --format=json` in `cwd`; the CLI exits non-zero on errors, which still prints the report. */
const lint = (cwd: string, extra: string[] = []): TLint => {
  let out: string;
  try {
    out = execFileSync(process.execPath, [cli, 'lint', file, '--format=json', ...extra], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
  } catch (e) {
    out = String((e as { stdout?: string }).stdout ?? '');
  }
  return JSON.parse(out.slice(out.indexOf('{'))) as TLint;
};

describe('GET /api/openapi.json under redocly lint', () => {
  it('has no problems under the repo configuration', () => {
    const report = lint(root, ['--config', path.join(root, 'redocly.yaml')]);
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it('has no errors under the bare recommended rules, only the documented path overlaps', () => {
    const report = lint(dir);
    expect(report.totals.errors).toBe(0);
    expect(new Set(report.problems.map((p) => p.ruleId))).toEqual(new Set(report.problems.length ? ['no-ambiguous-paths'] : []));
  }, 30_000);
});
