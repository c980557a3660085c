/**
 * lib/auth stays low: tokens, sessions, the caller type and permissions, importing only the
 * database, the environment, errors and itself, never a domain folder (principals and user
 * provisioning live above it, in lib/principals), so no folder cycle runs through it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = import.meta.dirname;
/** What a file of lib/auth may import of the repository (packages are free). */
const ALLOWED = [/^@\/db\//, /^@\/lib\/env$/, /^@\/lib\/errors\//, /^\.\/[\w-]+$/];

describe('lib/auth', () => {
  it('imports no domain folder: only db/, lib/env, lib/errors, its own files and packages', () => {
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThanOrEqual(5);
    const reaching: string[] = [];
    for (const f of files) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s+'([^']+)'/g)) {
        const local = spec!.startsWith('@/') || spec!.startsWith('.');
        if (local && !ALLOWED.some((r) => r.test(spec!))) reaching.push(`${f} -> ${spec}`);
      }
    }
    expect(reaching).toEqual([]);
  });
});
