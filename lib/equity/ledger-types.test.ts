/**
 * Every ledger type the code writes is classified (lib/equity/README.md): the files that write to
 * the ledger are found by their import of lib/ledger/ledger, and every `type: '…'` literal in them
 * (the ledger's `type` key, which balance_transactions stores as plain text) must be a contribution
 * or one product's cash flow. A new type written anywhere without a class fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEDGER_CLASS } from '@/lib/ledger/account-numbers';
import { TRANSACTION_TYPES } from '@/lib/ledger/ledger';

const ROOT = path.resolve(__dirname, '../..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) out.push(...sources(file));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(file);
  }
  return out;
}

/** The `type` literals of the ledger changes a writer builds (a reference, `{ type: '…', id }`, is not one). */
function writtenTypes(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\btype:\s*([^,}\n]+)(,\s*id\b)?/g)) {
    if (m[2] || !m[1]) continue;
    for (const lit of m[1].matchAll(/'([a-z_]+)'/g)) if (lit[1]) found.push(lit[1]);
  }
  return found;
}

describe('the ledger types the code writes', () => {
  const writers = ['lib', 'app', 'scripts']
    .flatMap((d) => sources(path.join(ROOT, d)))
    .filter((f) => /from '@\/lib\/ledger\/ledger'/.test(readFileSync(f, 'utf8')) && !f.endsWith(path.join('lib', 'ledger', 'ledger.ts')));
  const written = new Map<string, string[]>();
  for (const f of writers) {
    const text = readFileSync(f, 'utf8');
    if (!/\b(credit|debit|applyBalanceChange|balanceChangeCtes|settlementCtes)\b/.test(text)) continue;
    for (const t of writtenTypes(text)) written.set(t, [...(written.get(t) ?? []), path.relative(ROOT, f)]);
  }

  it('finds the writers (the scan itself works)', () => {
    // The grant, a buy, a perp close and a pool deposit are always written somewhere.
    for (const t of ['deposit', 'pred_buy', 'perp_close', 'pool_deposit']) expect(written.has(t), t).toBe(true);
  });

  it('classifies every one: a contribution or exactly one product', () => {
    const unclassified = [...written.keys()].filter((t) => !(t in LEDGER_CLASS));
    expect(unclassified, JSON.stringify(Object.fromEntries(unclassified.map((t) => [t, written.get(t)])))).toEqual([]);
    expect(Object.keys(LEDGER_CLASS).sort()).toEqual([...TRANSACTION_TYPES].sort());
  });
});
