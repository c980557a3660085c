// Adds up the vitest and Playwright JSON reports and prints "N passed, N failed" (CI reads it).
// A missing or unreadable report counts as one failure, so a suite that did not run is not green.
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
// The failures by name, printed last: the end of CI's output is what a reader sees first.
const failures = [];
const countPlaywright = (suites) => {
  for (const s of suites ?? []) {
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const last = t.results?.at(-1)?.status;
        if (t.status === 'flaky') failures.push(`flaky (passed on its retry): ${spec.file ?? s.file ?? ''} > ${spec.title} [${t.projectName ?? ''}]`);
        if (t.status === 'expected' || last === 'passed') passed++;
        else {
          failed++;
          failures.push(`e2e: ${spec.file ?? s.file ?? ''} > ${spec.title} [${t.projectName ?? ''}]`);
        }
      }
    }
    countPlaywright(s.suites);
  }
};

for (const file of process.argv.slice(2)) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    console.log(`${file}: missing or unreadable report`);
    failed++;
    continue;
  }
  if ('numPassedTests' in report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numTotalTests === 0 ? 1 : 0);
    console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
    for (const f of report.testResults ?? []) {
      for (const t of f.assertionResults ?? []) {
        if (t.status === 'failed') {
          const why = String(t.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
          failures.push(`${file}: ${f.name.replace(process.cwd() + '/', '')} > ${t.fullName}: ${why}`);
        }
      }
      if (f.status === 'failed' && !(f.assertionResults ?? []).some((t) => t.status === 'failed')) {
        failures.push(`${file}: ${f.name.replace(process.cwd() + '/', '')}: ${String(f.message ?? '').split('\n')[0].slice(0, 300)}`);
      }
    }
  } else {
    const before = [passed, failed];
    countPlaywright(report.suites);
    if (report.errors?.length) failed += report.errors.length;
    console.log(`${file}: ${passed - before[0]} passed, ${failed - before[1]} failed`);
  }
}
for (const f of failures) console.log(f.startsWith('flaky') ? `NOTE ${f}` : `FAILED ${f}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
