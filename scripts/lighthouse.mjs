#!/usr/bin/env node
/**
 * `npm run test:lighthouse`: Lighthouse's PWA and best-practices audits of a running server's
 * home page (issue 35 part 5). It starts no server: give it BASE_URL (e.g. after
 * `npm run build && npm start`, BASE_URL=http://localhost:3000). Chrome is Debian's Chromium
 * (CHROMIUM_PATH, default /usr/bin/chromium) in new headless mode, never a downloaded browser.
 *
 * Lighthouse is pinned to 11.x: 12 removed the PWA category. In 11 the installability check is
 * the `installable-manifest` audit (a service worker is no longer part of it; `service-worker`
 * is checked too should the version at hand still have it).
 *
 * Prints the two scores and every failing audit, writes .reports/lighthouse.json (the full
 * report), and exits 1 when an installability audit fails or best-practices scores below 0.9.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const CATEGORIES = ['pwa', 'best-practices'];
/** Audits that must pass for the app to install; each is required only if the report has it. */
export const INSTALLABILITY_AUDITS = ['installable-manifest', 'service-worker'];
export const MIN_BEST_PRACTICES = 0.9;

/**
 * What a Lighthouse result (its `lhr`) says, by our rule. Pure: no I/O.
 * failing: every audit of the two categories that scored below 1 (informative, manual and
 * not-applicable audits have a null score and are left out); problems: why the run fails ([] passes).
 */
export function evaluateReport(lhr) {
  const scores = {};
  const failing = [];
  const seen = new Set();
  for (const id of CATEGORIES) {
    const category = lhr.categories?.[id];
    scores[id] = category && typeof category.score === 'number' ? category.score : null;
    for (const ref of category?.auditRefs ?? []) {
      const audit = lhr.audits?.[ref.id];
      if (!audit || seen.has(ref.id)) continue;
      seen.add(ref.id);
      if (typeof audit.score === 'number' && audit.score < 1) {
        failing.push({ id: ref.id, category: id, title: audit.title ?? ref.id, score: audit.score, explanation: audit.explanation ?? audit.errorMessage ?? null });
      }
    }
  }
  const problems = [];
  for (const id of INSTALLABILITY_AUDITS) {
    const audit = lhr.audits?.[id];
    if (!audit) continue;
    if (audit.score !== 1) problems.push(`${id} fails${audit.explanation ? `: ${audit.explanation}` : ''}`);
  }
  if (!lhr.audits?.['installable-manifest']) problems.push('installable-manifest is missing from the report (is this Lighthouse 11?)');
  const bp = scores['best-practices'];
  if (bp === null) problems.push('best-practices has no score');
  else if (bp < MIN_BEST_PRACTICES) problems.push(`best-practices ${bp} < ${MIN_BEST_PRACTICES}`);
  return { scores, failing, problems, ok: problems.length === 0 };
}

/** The printout of an evaluation. Pure. */
export function formatEvaluation(url, { scores, failing, problems, ok }) {
  const lines = [`Lighthouse on ${url}`];
  for (const id of CATEGORIES) lines.push(`  ${id}: ${scores[id] === null ? 'no score' : scores[id].toFixed(2)}`);
  if (failing.length) {
    lines.push('Failing audits:');
    for (const f of failing) lines.push(`  [${f.category}] ${f.id} (${f.score}): ${f.title}${f.explanation ? ` (${f.explanation})` : ''}`);
  } else lines.push('No failing audit.');
  lines.push(ok ? 'PASS' : `FAIL: ${problems.join('; ')}`);
  return lines.join('\n');
}

async function main() {
  const base = process.env.BASE_URL;
  if (!base) {
    console.error('Set BASE_URL to a running server, e.g. BASE_URL=http://localhost:3000 npm run test:lighthouse');
    process.exit(2);
  }
  const url = new URL('/', base).href;
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  let lhr;
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
    lhr = result?.lhr;
  } finally {
    await chrome.kill();
  }
  if (!lhr) {
    console.error('Lighthouse returned no report');
    process.exit(1);
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const out = path.join(root, '.reports', 'lighthouse.json');
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, JSON.stringify(lhr, null, 2));
  const evaluation = evaluateReport(lhr);
  console.log(formatEvaluation(url, evaluation));
  console.log(`Report: ${path.relative(process.cwd(), out)} (Lighthouse ${lhr.lighthouseVersion})`);
  process.exit(evaluation.ok ? 0 : 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
