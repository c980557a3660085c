/**
 * Structural rules of STYLE.md that a reviewer would otherwise have to remember: every declared
 * endpoint has a route file exporting its verb (and every route is declared), nothing under app/
 * or components/ touches the database, only lib/ledger writes balance columns, and imports under
 * lib/ and db/ run one way (no cycle).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
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
/**
 * Route files whose verb is a transport of its own rather than one route() call, and why.
 * app/api/a2a: JSON-RPC 2.0 (lib/a2a/transport.ts) runs each call of a batch through the
 * operation core itself, so every call is rate-limited, authorised and validated like a REST one.
 */
const TRANSPORT_FILES = new Set([path.join('app', 'api', 'a2a', 'route.ts')]);
const isTransportFile = (file: string) => TRANSPORT_FILES.has(path.relative(root, file));

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
      if (isTransportFile(file)) expect(src, file).toMatch(/= handleA2a;/);
      else if (!isFallbackFile(file)) expect(src, file).toMatch(/= route\(/);
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

describe('one name per domain', () => {
  const names = (dir: string, ext: RegExp) =>
    fs.readdirSync(path.join(root, dir)).filter((f) => ext.test(f) && !/\.test\./.test(f)).map((f) => f.replace(ext, ''));
  // Contract files that are not a domain: shared schemas, the endpoint type, the registry, the wrapper's own answers.
  const notDomains = new Set(['common', 'endpoint', 'index', 'fallback']);
  const domains = names('lib/contracts', /\.ts$/).filter((n) => !notDomains.has(n));

  it("every contract file names a service folder: lib/contracts/<domain>.ts and lib/<domain>/", () => {
    expect(domains.filter((d) => !fs.existsSync(path.join(root, 'lib', d)))).toEqual([]);
  });

  it('client query files are named after the contract they call (errors.ts aside)', () => {
    expect(names('lib/client/queries', /\.ts$/).filter((n) => n !== 'errors' && !domains.includes(n))).toEqual([]);
  });
});

describe('boundaries', () => {
  it('nothing under app/ or components/ imports db/', () => {
    for (const file of [...walk(path.join(root, 'app')), ...walk(path.join(root, 'components'))].filter((f) => /\.tsx?$/.test(f))) {
      expect(fs.readFileSync(file, 'utf8'), file).not.toMatch(/from ['"](@\/db|\.\.\/.*db\/)/);
    }
  });

  it("server modules (every service, the ledger, db/client.ts) import 'server-only', so no browser bundle can reach them", () => {
    const server = [
      ...walk(path.join(root, 'lib')).filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f) && (f.includes(`${path.sep}service${path.sep}`) || f.endsWith(`${path.sep}service.ts`) || f.includes(`${path.sep}ledger${path.sep}`))),
      path.join(root, 'db', 'client.ts'),
    ];
    expect(server.length).toBeGreaterThan(40);
    const unmarked = server.filter((f) => !/^import 'server-only';$/m.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(root, f));
    expect(unmarked).toEqual([]);
  });

  it('only lib/points writes reputation points', () => {
    const offenders = [];
    const files = [...walk(path.join(root, 'lib')), ...walk(path.join(root, 'db')), ...walk(path.join(root, 'app')), ...walk(path.join(root, 'scripts')), path.join(root, 'test', 'factories.ts')];
    for (const file of files) {
      if (!/\.tsx?$/.test(file) || file === path.join(root, 'lib', 'points', 'ledger.ts') || /\.test\.ts$/.test(file)) continue;
      const src = fs.readFileSync(file, 'utf8');
      // A write names the column as a value (`reputationPoints: 5`); a select maps it from the table (`reputationPoints: users.reputationPoints`).
      if (/reputationPoints\s*:(?!\s*users\.)|reputation_points\s*=/.test(src) && /\.(update|insert)\(/.test(src)) offenders.push(path.relative(root, file));
    }
    expect(offenders).toEqual([]);
  });

  it('only lib/ledger writes balance columns', () => {
    const offenders = [];
    const files = [
      ...walk(path.join(root, 'lib')),
      ...walk(path.join(root, 'db')),
      ...walk(path.join(root, 'app')),
      ...walk(path.join(root, 'scripts')),
      path.join(root, 'test', 'factories.ts'),
    ];
    for (const file of files) {
      if (!/\.tsx?$/.test(file) || file.includes(`${path.sep}ledger${path.sep}`) || /\.test\.ts$/.test(file)) continue;
      const src = fs.readFileSync(file, 'utf8');
      if (/virtualBalance\s*:|virtual_balance\s*=|totalDeposited\s*:|totalWithdrawn\s*:|lifetimePnL\s*:\s*sql/.test(src) && /\.(update|insert)\(/.test(src)) {
        offenders.push(path.relative(root, file));
      }
    }
    expect(offenders).toEqual([]);
  });
});

/**
 * The import graph of lib/ and db/: for each file, the files it imports at run time (relative and
 * '@/' specifiers; `import type` and imports of types only are erased by the compiler and left out).
 */
const runtimeImportGraph = () => {
  const files = [...walk(path.join(root, 'lib')), ...walk(path.join(root, 'db'))].filter(
    (f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts') && !f.includes(`${path.sep}migrations${path.sep}`),
  );
  const resolve = (from: string, spec: string) => {
    const base = spec.startsWith('@/') ? path.join(root, spec.slice(2)) : spec.startsWith('.') ? path.resolve(path.dirname(from), spec) : null;
    if (!base) return null; // a package
    const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
    return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? null;
  };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const deps: string[] = [];
    for (const st of source.statements) {
      let spec: string | null = null;
      let typeOnly = false;
      if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
        spec = st.moduleSpecifier.text;
        const clause = st.importClause;
        const named = clause?.namedBindings;
        typeOnly =
          !!clause &&
          (clause.isTypeOnly ||
            (!clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
      } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
        spec = st.moduleSpecifier.text;
        const named = st.exportClause;
        typeOnly = st.isTypeOnly || (!!named && ts.isNamedExports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly));
      }
      const target = spec && !typeOnly ? resolve(file, spec) : null;
      if (target) deps.push(target);
    }
    graph.set(file, deps);
  }
  return graph;
};

/** Every cycle a depth-first search meets, as "a.ts -> b.ts -> a.ts" (one per back edge). */
const findCycles = (graph: Map<string, string[]>) => {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const dep of graph.get(file) ?? []) {
      if (!graph.has(dep)) continue;
      if (state.get(dep) === 'open') {
        cycles.push([...stack.slice(stack.indexOf(dep)), dep].map((f) => path.relative(root, f)).join(' -> '));
      } else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
};

/** Layers that may be read in one direction only: [the lower one, the one that reads it]. */
const ONE_WAY: [lower: string, upper: string][] = [
  // Writers emit into the outbox; delivery (LISTEN, fan-out, SSE, the in-process bus) reads it.
  ['lib/events', 'lib/realtime'],
];

describe('imports run one way', () => {
  const graph = runtimeImportGraph();

  it('no import cycle between files under lib/ and db/', () => {
    expect(findCycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const [a, b, c] = ['lib/a.ts', 'lib/b.ts', 'lib/c.ts'].map((f) => path.join(root, f)) as [string, string, string];
    expect(findCycles(new Map([[a, [b]], [b, [c]], [c, [a]]]))).toEqual(['lib/a.ts -> lib/b.ts -> lib/c.ts -> lib/a.ts']);
    expect(findCycles(new Map([[a, [b, c]], [b, [c]], [c, []]]))).toEqual([]);
  });

  it('no cycle between folders either: lib/<domain> and db/ form layers', () => {
    // A folder is db/ or lib/<name>; an edge a -> b when any file of a imports a file of b.
    // lib/moderation's visibility.ts and reach.ts are the lowest layer of all content domains
    // (posts, comments, notifications, users, realtime read them), while moderation's services sit
    // above lib/users: the two files count as leaves of their own (visibility.structure.test.ts
    // holds them to the schema, drizzle, db/client and lib/errors).
    const LEAVES = new Set(['lib/moderation/visibility.ts', 'lib/moderation/reach.ts']);
    const folderOf = (f: string) => {
      const relPath = path.relative(root, f);
      if (LEAVES.has(relPath.split(path.sep).join('/'))) return relPath;
      const rel = relPath.split(path.sep);
      return rel[0] === 'lib' ? `lib/${rel[1]}` : rel[0]!;
    };
    const folders = new Map<string, Set<string>>();
    // Tests sit beside the code but are not a layer: they may import anything.
    for (const [file, deps] of graph) {
      if (/\.test\.ts$/.test(file)) continue;
      const from = folderOf(file);
      const set = folders.get(from) ?? new Set<string>();
      for (const dep of deps) if (folderOf(dep) !== from) set.add(folderOf(dep));
      folders.set(from, set);
    }
    const asGraph = new Map([...folders].map(([k, v]) => [path.join(root, k), [...v].map((d) => path.join(root, d))]));
    expect(findCycles(asGraph)).toEqual([]);
  });

  it('the operation core knows no transport: nothing under lib/operations imports Next.js or lib/http', () => {
    for (const file of walk(path.join(root, 'lib', 'operations')).filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f))) {
      const src = fs.readFileSync(file, 'utf8');
      expect(src, path.relative(root, file)).not.toMatch(/from ['"](next|next\/[^'"]*|@\/lib\/http\/[^'"]*)['"]/);
    }
  });

  it('lower layers never import the layers above them', () => {
    const offenders = [];
    for (const [file, deps] of graph) {
      for (const [lower, upper] of ONE_WAY) {
        const inside = (f: string, dir: string) => path.relative(root, f).startsWith(`${dir}/`);
        for (const dep of deps) if (inside(file, lower) && inside(dep, upper)) offenders.push(`${path.relative(root, file)} -> ${path.relative(root, dep)}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
