/**
 * Structural rules of STYLE.md that a reviewer would otherwise have to remember: every declared
 * endpoint has a route file exporting its verb (and every route is declared), nothing under app/
 * or components/ touches the database, and only lib/ledger writes balance columns.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpoints } from '@/lib/contracts';

const root = path.resolve(import.meta.dirname, '..');

const walk = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
        const p = path.join(dir, d.name);
        return d.isDirectory() ? walk(p) : [p];
      })
    : [];

const apiRouteFiles = () => walk(path.join(root, 'app', 'api')).filter((f) => f.endsWith('route.ts'));
/** app/api/[[...path]]: the JSON 404 for every path under /api without a route file. */
const isFallbackFile = (file: string) => file.includes('[[...path]]');

const routeFileFor = (apiPath: string) =>
  path.join(root, 'app', apiPath.replace(/\{(\w+)\}/g, '[$1]'), 'route.ts');

describe('endpoint registry and route files', () => {
  it('every declared endpoint has a route.ts exporting its method', () => {
    for (const e of endpoints) {
      const file = routeFileFor(e.path);
      expect(fs.existsSync(file), `${file} for ${e.id}`).toBe(true);
      expect(fs.readFileSync(file, 'utf8'), `${e.method} in ${file}`).toMatch(new RegExp(`export const ${e.method}\\b`));
    }
  });

  it('every route.ts verb is declared in the registry', () => {
    const declared = new Set(endpoints.map((e) => `${e.method} ${routeFileFor(e.path)}`));
    for (const file of walk(path.join(root, 'app', 'api')).filter((f) => f.endsWith('route.ts'))) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)) {
        expect(declared.has(`${m[1]} ${file}`), `${m[1]} ${path.relative(root, file)} is not in lib/contracts`).toBe(true);
      }
    }
  });

  it('route handlers stay thin: one route() call per verb, no database access', () => {
    for (const file of apiRouteFiles()) {
      const src = fs.readFileSync(file, 'utf8');
      if (!isFallbackFile(file)) expect(src, file).toMatch(/= route\(/);
      expect(src, file).not.toMatch(/from '@\/db/);
    }
  });

  it('every route file answers every method in JSON: its own verbs, and 405 with Allow (OPTIONS: the preflight) for the rest', () => {
    for (const file of apiRouteFiles()) {
      const src = fs.readFileSync(file, 'utf8');
      const own = new Set([...src.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]));
      const fallback = /export const \{ ([A-Z, ]+) \} = (methodNotAllowedHandlers|notFoundHandlers);/.exec(src);
      const rest = new Set(fallback ? fallback[1]!.split(', ') : []);
      for (const verb of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        expect(own.has(verb) !== rest.has(verb), `${path.relative(root, file)} must export ${verb} exactly once`).toBe(true);
      }
    }
  });
});

describe('boundaries', () => {
  it('nothing under app/ or components/ imports db/', () => {
    for (const file of [...walk(path.join(root, 'app')), ...walk(path.join(root, 'components'))].filter((f) => /\.tsx?$/.test(f))) {
      expect(fs.readFileSync(file, 'utf8'), file).not.toMatch(/from ['"](@\/db|\.\.\/.*db\/)/);
    }
  });

  it('only lib/ledger writes balance columns', () => {
    const offenders = [];
    for (const file of [...walk(path.join(root, 'lib')), ...walk(path.join(root, 'db')), ...walk(path.join(root, 'app'))]) {
      if (!/\.tsx?$/.test(file) || file.includes(`${path.sep}ledger${path.sep}`) || /\.test\.ts$/.test(file)) continue;
      const src = fs.readFileSync(file, 'utf8');
      if (/virtualBalance\s*:|virtual_balance\s*=|totalDeposited\s*:|totalWithdrawn\s*:|lifetimePnL\s*:\s*sql/.test(src) && /\.(update|insert)\(/.test(src)) {
        offenders.push(path.relative(root, file));
      }
    }
    expect(offenders).toEqual([]);
  });
});
