/**
 * The method table's rules, read from the source and the table: no method module touches the
 * database (methods call services), names and aliases are unique, and the methods are exactly the
 * ones the registry publishes for agents.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { A2A_METHODS } from '@/lib/registry/capabilities';
import { A2A_METHOD_TABLE, findMethod } from '.';

const dir = import.meta.dirname;
const sources = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => ({ file: f, text: fs.readFileSync(path.join(dir, f), 'utf8') }));

describe('the A2A method table', () => {
  it('no method module imports the database (db/, drizzle, a driver)', () => {
    expect(sources.length).toBeGreaterThanOrEqual(5);
    for (const { file, text } of sources) {
      const imports = [...text.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]!);
      const touching = imports.filter((s) => s.startsWith('@/db') || s.startsWith('drizzle-orm') || s === 'postgres' || s.startsWith('@electric-sql'));
      expect(touching, file).toEqual([]);
    }
  });

  it('every name and alias finds its method, and each is published in the registry', () => {
    for (const m of A2A_METHOD_TABLE) {
      expect(findMethod(m.name)).toBe(m);
      for (const a of m.aliases ?? []) expect(findMethod(a)).toBe(m);
      expect(A2A_METHODS as readonly string[]).toContain(m.name);
    }
    expect(findMethod('a2a.nothing')).toBeUndefined();
    expect(A2A_METHOD_TABLE.map((m) => m.name).sort()).toEqual([...A2A_METHODS].sort());
  });
});
