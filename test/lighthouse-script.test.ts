/**
 * scripts/lighthouse.mjs's pure part: how a Lighthouse 11 report is judged (installability audits,
 * best-practices >= 0.9) and which audits are listed as failing. The run itself needs a server
 * and Chromium (`BASE_URL=… npm run test:lighthouse`).
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { MIN_BEST_PRACTICES, evaluateReport, formatEvaluation } from '../scripts/lighthouse.mjs';

type TAudit = { score: number | null; title?: string; explanation?: string };
const report = ({ pwa = 1, bp = 1, audits = {} as Record<string, TAudit> } = {}) => {
  const all: Record<string, TAudit> = {
    'installable-manifest': { score: 1, title: 'Web app manifest and service worker meet the installability requirements' },
    'maskable-icon': { score: 1, title: 'Manifest has a maskable icon' },
    'themed-omnibox': { score: 1 },
    'errors-in-console': { score: 1, title: 'No browser errors logged to the console' },
    'inspector-issues': { score: null },
    ...audits,
  };
  return {
    categories: {
      pwa: { score: pwa, auditRefs: [{ id: 'installable-manifest' }, { id: 'maskable-icon' }, { id: 'themed-omnibox' }] },
      'best-practices': { score: bp, auditRefs: [{ id: 'errors-in-console' }, { id: 'inspector-issues' }] },
    },
    audits: all,
  };
};

describe('lighthouse evaluation', () => {
  it('passes a clean report', () => {
    const e = evaluateReport(report());
    expect(e).toMatchObject({ ok: true, problems: [], failing: [], scores: { pwa: 1, 'best-practices': 1 } });
    expect(formatEvaluation('http://x/', e)).toContain('PASS');
  });

  it('fails when the manifest is not installable, naming why', () => {
    const e = evaluateReport(report({ pwa: 0.5, audits: { 'installable-manifest': { score: 0, title: 'installable', explanation: 'No manifest was fetched' } } }));
    expect(e.ok).toBe(false);
    expect(e.problems[0]).toMatch(/^installable-manifest fails: No manifest was fetched/);
    expect(e.failing.map((f: { id: string }) => f.id)).toEqual(['installable-manifest']);
  });

  it('checks service-worker only where the version has it', () => {
    expect(evaluateReport(report()).ok).toBe(true);
    expect(evaluateReport(report({ audits: { 'service-worker': { score: 0 } } })).problems).toEqual(['service-worker fails']);
    expect(evaluateReport(report({ audits: { 'service-worker': { score: 1 } } })).ok).toBe(true);
  });

  it('fails best-practices below 0.9 and passes it at 0.9', () => {
    expect(MIN_BEST_PRACTICES).toBe(0.9);
    expect(evaluateReport(report({ bp: 0.89 })).problems).toEqual(['best-practices 0.89 < 0.9']);
    expect(evaluateReport(report({ bp: 0.9 })).ok).toBe(true);
  });

  it('lists a failing audit that does not fail the run (a PWA nicety) but not audits without a score', () => {
    const e = evaluateReport(report({ pwa: 0.9, audits: { 'maskable-icon': { score: 0, title: 'Manifest has a maskable icon' } } }));
    expect(e.ok).toBe(true);
    expect(e.failing).toEqual([{ id: 'maskable-icon', category: 'pwa', title: 'Manifest has a maskable icon', score: 0, explanation: null }]);
    expect(formatEvaluation('http://x/', e)).toContain('[pwa] maskable-icon (0)');
  });

  it('refuses a report without the installability audit (not Lighthouse 11)', () => {
    const r = report();
    delete (r.audits as Record<string, unknown>)['installable-manifest'];
    expect(evaluateReport(r).problems).toContain('installable-manifest is missing from the report (is this Lighthouse 11?)');
  });
});
