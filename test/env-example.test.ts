/**
 * .env.example lists every variable lib/env.ts reads (the keys of its ZEnv schema), and nothing it
 * does not read; a commented line (`# NAME=…`) counts as listed: its default is to stay unset.
 * Its uncommented values parse in development.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/env';

const root = path.resolve(import.meta.dirname, '..');

/** The keys of `const ZEnv = z.object({ … });` in lib/env.ts. */
const envTsVariables = () => {
  const src = fs.readFileSync(path.join(root, 'lib', 'env.ts'), 'utf8');
  const body = /const ZEnv = z\.object\(\{([\s\S]*?)\n\}\);/.exec(src)?.[1];
  if (!body) throw new Error('ZEnv not found in lib/env.ts');
  return [...body.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
};

const example = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
const listed = [...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
const setValues = Object.fromEntries([...example.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));

describe('.env.example', () => {
  it('lists every variable lib/env.ts reads, each once, and no other', () => {
    const vars = envTsVariables();
    expect(vars.length).toBeGreaterThan(30);
    expect(vars).toContain('PUBLIC_BASE_URL');
    expect([...listed].sort()).toEqual([...new Set(vars)].sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('has a comment above each variable', () => {
    const lines = example.split('\n');
    lines.forEach((line, i) => {
      if (!/^#?\s*[A-Z][A-Z0-9_]*=/.test(line)) return;
      let j = i - 1;
      while (j >= 0 && /^#?\s*[A-Z][A-Z0-9_]*=/.test(lines[j]!)) j--;
      expect(lines[j]?.startsWith('#'), `comment above ${line}`).toBe(true);
    });
  });

  it('its values are a valid development environment', () => {
    const e = parseEnv({ ...setValues, NODE_ENV: 'development' });
    expect(e.publicBaseUrl).toBe('http://localhost:3000');
    expect(e.isProduction).toBe(false);
  });
});
