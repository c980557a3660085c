/**
 * Structural rules (README "Architecture") that a reviewer would otherwise have to remember: every
 * declared endpoint has a route file exporting its verb (and every route is declared), nothing
 * under app/ or components/ touches the database, only lib/ledger writes balance columns, and
 * imports under lib/ and db/ run one way (no cycle between files; none between folders either,
 * type imports included).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { endpoints } from '@/lib/contracts';
import { isPrivileged } from '@/lib/auth/permissions';

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
 * app/api/mcp: MCP (lib/mcp/transport.ts), each tool call through the operation core the same way.
 */
const TRANSPORT_FILES = new Set([path.join('app', 'api', 'a2a', 'route.ts'), path.join('app', 'api', 'mcp', 'route.ts')]);
const isTransportFile = (file: string) => TRANSPORT_FILES.has(path.relative(root, file));

const routeFileFor = (apiPath: string) =>
  path.join(root, 'app', apiPath.replace(/\{(\w+)\}/g, '[$1]'), 'route.ts');

/**
 * The columns only a ledger writes, each with the files that may: lib/ledger the balance columns,
 * lib/points/ledger.ts reputation points. `usersOnly`: no other table has a column of that name,
 * so a write of it anywhere is a write of the user's; lifetime_pnl is also a column of the
 * standings read model and of the daily closes, so only a write aimed at users counts.
 */
const GUARDED: { column: string; prop: string; usersOnly: boolean; owns: (file: string) => boolean }[] = [
  { column: 'virtual_balance', prop: 'virtualBalance', usersOnly: true, owns: (f) => f.startsWith('lib/ledger/') },
  { column: 'total_deposited', prop: 'totalDeposited', usersOnly: true, owns: (f) => f.startsWith('lib/ledger/') },
  { column: 'total_withdrawn', prop: 'totalWithdrawn', usersOnly: true, owns: (f) => f.startsWith('lib/ledger/') },
  { column: 'lifetime_pnl', prop: 'lifetimePnL', usersOnly: false, owns: (f) => f.startsWith('lib/ledger/') },
  { column: 'reputation_points', prop: 'reputationPoints', usersOnly: true, owns: (f) => f === 'lib/points/ledger.ts' },
];

type TBalanceWrite = { file: string; line: number; column: string; via: 'sql' | 'drizzle' };

/**
 * Where a file writes a guarded column outside its ledger. Two forms:
 *  - SQL, anywhere in the text (sql`` templates, strings, sql.raw): an unqualified `column =`.
 *    PostgreSQL refuses a qualified target in SET, so every assignment is unqualified; a
 *    comparison is written qualified (`u.virtual_balance = …`) and is not one. `>=`, `<=`, `<>`,
 *    `!=` and `==` are not assignments. lifetime_pnl counts inside an `update users … set` only.
 *  - Drizzle: a guarded property in the object given to `.set(…)`, `.values(…)` or
 *    `.onConflictDoUpdate({ set })` (a variable of this file passed instead is followed),
 *    lifetimePnL only when the chain's `.update(…)`/`.insert(…)` names `users`.
 */
const findBalanceWrites = (file: string, src: string): TBalanceWrite[] => {
  const out: TBalanceWrite[] = [];
  const lineAt = (index: number) => src.slice(0, index).split('\n').length;
  const foreign = GUARDED.filter((g) => !g.owns(file));
  if (foreign.length === 0) return out;

  // The column, bare or quoted (`"col"`, `\"col\"` inside a string), not after a `.`, then `=` but not `==`.
  const assignment = (column: string) => new RegExp(String.raw`(?<![.\w"\\])(?:\\?")?${column}(?:\\?")?\s*=(?!=)`, 'gi');
  for (const g of foreign.filter((c) => c.usersOnly)) {
    for (const m of src.matchAll(assignment(g.column))) out.push({ file, line: lineAt(m.index), column: g.column, via: 'sql' });
  }
  const usersUpdate = /\bupdate\s+(?:\$\{\s*users\s*\}|"?users"?)(?:\s+(?:as\s+)?(?!set\b)\w+)?\s+set\b([\s\S]*?)(?=\bwhere\b|\bfrom\b|\breturning\b|`|;|$)/gi;
  for (const g of foreign.filter((c) => !c.usersOnly)) {
    for (const m of src.matchAll(usersUpdate)) {
      const inSet = assignment(g.column).exec(m[1]!);
      if (inSet) out.push({ file, line: lineAt(m.index + m[0].length - m[1]!.length + inSet.index), column: g.column, via: 'sql' });
    }
  }

  if (!foreign.some((g) => src.includes(g.prop))) return out;
  const source = ts.createSourceFile(file, src, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const objectsByName = new Map<string, ts.Node[]>();
  const collect = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      objectsByName.set(node.name.text, [...(objectsByName.get(node.name.text) ?? []), node.initializer]);
    }
    ts.forEachChild(node, collect);
  };
  collect(source);
  /** The table of the chain's `.update(t)` or `.insert(t)`, if the chain has one. */
  const tableOf = (expr: ts.Expression): string | undefined => {
    let e: ts.Expression = expr;
    while (ts.isCallExpression(e) || ts.isPropertyAccessExpression(e) || ts.isNonNullExpression(e) || ts.isParenthesizedExpression(e)) {
      if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && ['update', 'insert'].includes(e.expression.name.text)) {
        return e.arguments[0]?.getText(source);
      }
      e = e.expression;
    }
    return undefined;
  };
  /** Every property name given in an argument: object literals at any depth, variables of this file followed once. */
  const propertyNames = (node: ts.Node, seen = new Set<string>()): { name: string; node: ts.Node }[] => {
    const names: { name: string; node: ts.Node }[] = [];
    const visit = (n: ts.Node) => {
      if ((ts.isPropertyAssignment(n) || ts.isShorthandPropertyAssignment(n)) && (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name))) {
        names.push({ name: n.name.text, node: n });
      }
      if (ts.isIdentifier(n) && !seen.has(n.text) && objectsByName.has(n.text) && !(ts.isPropertyAssignment(n.parent) && n.parent.name === n)) {
        seen.add(n.text);
        for (const init of objectsByName.get(n.text)!) names.push(...propertyNames(init, seen));
      }
      ts.forEachChild(n, visit);
    };
    visit(node);
    return names;
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ['set', 'values', 'onConflictDoUpdate'].includes(node.expression.name.text)) {
      const table = tableOf(node.expression.expression);
      for (const arg of node.arguments) {
        for (const { name, node: at } of propertyNames(arg)) {
          const g = foreign.find((c) => c.prop === name);
          if (!g || (table !== undefined && table !== 'users') || (!g.usersOnly && table !== 'users')) continue;
          out.push({ file, line: source.getLineAndCharacterOfPosition(at.getStart(source)).line + 1, column: g.column, via: 'drizzle' });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
};

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
      if (isTransportFile(file)) expect(src, file).toMatch(/= handle(A2a|Mcp);/);
      else if (!isFallbackFile(file)) expect(src, file).toMatch(/= route\(/);
      expect(src, file).not.toMatch(/from '@\/db/);
    }
  });

  it("an endpoint declared the same for every caller is a public GET a player may call, and its handler takes no caller", () => {
    const declared = endpoints.filter((e) => e.sameForEveryCaller);
    expect(declared.length).toBeGreaterThan(0);
    for (const e of declared) {
      expect({ id: e.id, method: e.method, auth: e.auth, privileged: isPrivileged(e.requires) }).toEqual({ id: e.id, method: 'GET', auth: 'public', privileged: false });
      const src = fs.readFileSync(routeFileFor(e.path), 'utf8');
      const handler = /export const GET = route\(\w+, async \(([^)]*)\) =>/.exec(src);
      expect(handler, `${e.id}: GET = route(endpoint, async (...) => ...)`).not.toBeNull();
      expect(handler![1], `${e.id}'s handler must not read the caller`).not.toMatch(/\b(caller|principal|req)\b/);
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
  // Contract files that are not a domain: shared schemas, the endpoint type, the registry, the wrapper's own answers,
  // the rate-limit rules endpoints name.
  const notDomains = new Set(['common', 'endpoint', 'index', 'fallback', 'rate-limits']);
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

  // What the balance-writer rule finds in all application code (tests set up states as they like).
  let writes: TBalanceWrite[] | undefined;
  const writesInTree = () =>
    (writes ??= [...walk(path.join(root, 'lib')), ...walk(path.join(root, 'db')), ...walk(path.join(root, 'app')), ...walk(path.join(root, 'scripts')), path.join(root, 'server.mjs'), path.join(root, 'test', 'factories.ts')]
      .filter((f) => /\.(tsx?|mjs)$/.test(f) && !/\.test\.ts$/.test(f) && !f.endsWith('.d.ts'))
      .flatMap((f) => findBalanceWrites(path.relative(root, f).split(path.sep).join('/'), fs.readFileSync(f, 'utf8'))));

  it('only lib/points/ledger.ts writes reputation points', () => {
    expect(writesInTree().filter((w) => w.column === 'reputation_points')).toEqual([]);
  });

  it('only lib/ledger writes balance columns', () => {
    expect(writesInTree().filter((w) => w.column !== 'reputation_points')).toEqual([]);
  });

  it('the balance-writer rule sees raw SQL and Drizzle writes (the check itself)', () => {
    const found = (src: string, file = 'lib/evil/service.ts') => findBalanceWrites(file, src).map((w) => `${w.column} ${w.via} ${w.line}`);
    // The case: a file holding only a raw-SQL update.
    expect(found('update users set virtual_balance = 0')).toEqual(['virtual_balance sql 1']);
    expect(found("await db.execute(sql`\n  update ${users}\n  set updated_at = now(), virtual_balance = virtual_balance + ${x}\n  where id = ${id}`);")).toEqual(['virtual_balance sql 3']);
    expect(found('const q = "UPDATE users SET \\"reputation_points\\" = 5 WHERE id = $1";')).toEqual(['reputation_points sql 1']);
    expect(found("await tx.execute(sql.raw('update users set total_deposited=0, total_withdrawn =0'));")).toEqual(['total_deposited sql 1', 'total_withdrawn sql 1']);
    expect(found('await db.execute(sql`update ${users} u set lifetime_pnl = 0 where u.id = ${id}`);')).toEqual(['lifetime_pnl sql 1']);
    // Drizzle: .set, .values, onConflictDoUpdate, a patch in a variable, over several lines.
    expect(found("await db.update(users).set({ virtualBalance: '0' }).where(eq(users.id, id));")).toEqual(['virtual_balance drizzle 1']);
    expect(found("await tx\n  .update(users)\n  .set({\n    updatedAt: now(),\n    lifetimePnL: sql`0`,\n  });")).toEqual(['lifetime_pnl drizzle 5']);
    expect(found("await db.insert(users).values({ username: 'x', reputationPoints: 10 });")).toEqual(['reputation_points drizzle 1']);
    expect(found('await db.insert(users).values(row).onConflictDoUpdate({ target: users.id, set: { totalWithdrawn: x } });')).toEqual(['total_withdrawn drizzle 1']);
    expect(found("const patch = { virtualBalance: '5' };\nawait db.update(users).set(patch);")).toEqual(['virtual_balance drizzle 1']);
    // The wrong ledger is still outside: lib/points/ledger.ts may write points, not money.
    expect(found('update users set virtual_balance = 0, reputation_points = 1', 'lib/points/ledger.ts')).toEqual(['virtual_balance sql 1']);

    // Not writes: the owners, qualified comparisons, other operators, reads, other tables' lifetime_pnl.
    expect(found('update users set virtual_balance = 0', 'lib/ledger/ledger.ts')).toEqual([]);
    expect(found('update users set reputation_points = reputation_points + 1', 'lib/points/ledger.ts')).toEqual([]);
    expect(found('select * from users u, users me where u.reputation_points = me.reputation_points and u.virtual_balance >= 0 and u."total_deposited" = 1 and x.virtual_balance <> 0')).toEqual([]);
    expect(found("const u = await db.select({ virtualBalance: users.virtualBalance, reputationPoints: users.reputationPoints }).from(users);")).toEqual([]);
    expect(found('const dto = { virtualBalance: toDecimalString(u.virtualBalance), lifetimePnL: 0 };')).toEqual([]);
    expect(found('insert into standings (user_id, lifetime_pnl) select id, lifetime_pnl from users on conflict (user_id) do update set lifetime_pnl = excluded.lifetime_pnl')).toEqual([]);
    expect(found('await db.update(standings).set({ lifetimePnL: x });')).toEqual([]);
  });
});

/**
 * The import graph of lib/ and db/: for each file, the files it imports (relative and '@/'
 * specifiers). By default at run time only: `import type` and imports of types only are erased by
 * the compiler and left out. With `includeTypes` they count too: a type import is still a
 * dependency a reader follows and a change ripples along, so the layering of folders holds for
 * types as well (a domain's dto.ts owns its output types; lib/contracts imports them, not the reverse).
 */
const importGraph = ({ includeTypes = false, tree = root }: { includeTypes?: boolean; tree?: string } = {}) => {
  const files = [...walk(path.join(tree, 'lib')), ...walk(path.join(tree, 'db'))].filter(
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
      const target = spec && (includeTypes || !typeOnly) ? resolve(file, spec) : null;
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

/** The tick's pruning of A2A storage: a leaf below lib/a2a (lib/a2a reaches lib/game through lib/system). */
const A2A_RETENTION = 'lib/a2a/retention.ts';

/** Layers that may be read in one direction only: [the lower one, the one that reads it]. */
const ONE_WAY: [lower: string, upper: string][] = [
  // Writers emit into the outbox; delivery (LISTEN, fan-out, SSE, the in-process bus) reads it.
  ['lib/events', 'lib/realtime'],
];

/** lib/a2a/retention.ts and moderation's two leaves: files that count as folders of their own (below). */
/** The outbox of A2A push deliveries, which lib/events' order updates write: a leaf below lib/a2a (database and clock only). */
const A2A_PUSH_OUTBOX = 'lib/a2a/push/outbox.ts';
/** The delivery of that outbox, which the tick runs, and the URL rules it re-checks: leaves too (database, clock, env, errors). */
const A2A_PUSH_DELIVERY = ['lib/a2a/push/deliver.ts', 'lib/a2a/push/url.ts'];
const FOLDER_LEAVES = new Set(['lib/moderation/visibility.ts', 'lib/moderation/reach.ts', A2A_RETENTION, A2A_PUSH_OUTBOX, ...A2A_PUSH_DELIVERY]);

/**
 * The folder graph of a file graph: a folder is db/ or lib/<name>; an edge a -> b when any file of
 * a imports a file of b. lib/moderation's visibility.ts and reach.ts are the lowest layer of all
 * content domains (posts, comments, notifications, users, realtime read them), while moderation's
 * services sit above lib/users: the two files count as leaves of their own
 * (visibility.structure.test.ts holds them to the schema, drizzle, db/client and lib/errors).
 * lib/a2a/retention.ts, the pruning of A2A tasks that the tick runs, is one
 * too (held below). Tests sit beside the code but are not a layer: they may import anything.
 */
const folderGraph = (graph: Map<string, string[]>, tree = root) => {
  const folderOf = (f: string) => {
    const relPath = path.relative(tree, f);
    if (FOLDER_LEAVES.has(relPath.split(path.sep).join('/'))) return relPath;
    const rel = relPath.split(path.sep);
    return rel[0] === 'lib' ? `lib/${rel[1]}` : rel[0]!;
  };
  const folders = new Map<string, Set<string>>();
  for (const [file, deps] of graph) {
    if (/\.test\.ts$/.test(file)) continue;
    const from = folderOf(file);
    const set = folders.get(from) ?? new Set<string>();
    for (const dep of deps) if (folderOf(dep) !== from) set.add(folderOf(dep));
    folders.set(from, set);
  }
  return new Map([...folders].map(([k, v]) => [path.join(tree, k), [...v].map((d) => path.join(tree, d))]));
};

describe('imports run one way', () => {
  // Files: run-time imports, the order modules load in (two files of one folder may share types
  // both ways). Folders and layers: type imports too, since layering is about what depends on what.
  const graph = importGraph();
  const typedGraph = importGraph({ includeTypes: true });

  it('no import cycle between files under lib/ and db/', () => {
    expect(findCycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const [a, b, c] = ['lib/a.ts', 'lib/b.ts', 'lib/c.ts'].map((f) => path.join(root, f)) as [string, string, string];
    expect(findCycles(new Map([[a, [b]], [b, [c]], [c, [a]]]))).toEqual(['lib/a.ts -> lib/b.ts -> lib/c.ts -> lib/a.ts']);
    expect(findCycles(new Map([[a, [b, c]], [b, [c]], [c, []]]))).toEqual([]);
  });

  it('no cycle between folders either, counting `import type`: lib/<domain> and db/ form layers', () => {
    // Types count: a folder that only borrows another's types still depends on it (a change there
    // breaks it, a reader must go there), and type-only back edges are how folders used to grow
    // into one knot (domain DTOs typed by the contracts while the contracts import domain rules).
    expect(findCycles(folderGraph(typedGraph))).toEqual([]);
  });

  it('a type-only import between two folders is an edge of the folder graph (the check itself)', () => {
    // A tree of its own (outside the repository, so no other check sees it): lib/x/a.ts takes a
    // type from lib/y/b.ts, and b.ts takes a value from a.ts, so lib/x and lib/y form a cycle only
    // through the type import.
    const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'structure-check-'));
    try {
      const [a, b] = [path.join(tree, 'lib', 'x', 'a.ts'), path.join(tree, 'lib', 'y', 'b.ts')];
      for (const f of [a, b]) fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(a, "import type { TB } from '../y/b';\nexport const a = 1;\nexport type TA = TB;\n");
      fs.writeFileSync(b, "import { a } from '../x/a';\nexport type TB = { b: number };\nexport const b = a;\n");
      const typed = importGraph({ includeTypes: true, tree });
      const runtime = importGraph({ tree });
      expect(typed.get(a)).toEqual([b]);
      expect(runtime.get(a)).toEqual([]);
      expect(findCycles(folderGraph(typed, tree))).toHaveLength(1);
      expect(findCycles(folderGraph(runtime, tree))).toEqual([]);
    } finally {
      fs.rmSync(tree, { recursive: true, force: true });
    }
  });

  it('lib/a2a/retention.ts stays a leaf: it imports the database and pure modules only, never lib/a2a', () => {
    const deps = (graph.get(path.join(root, A2A_RETENTION)) ?? []).map((d) => path.relative(root, d).split(path.sep).join('/'));
    expect(deps.length).toBeGreaterThan(0);
    expect(deps.filter((d) => !d.startsWith('db/') && d !== 'lib/idempotency/key.ts')).toEqual([]);
  });

  it('the operation core knows no transport: nothing under lib/operations imports Next.js or lib/http', () => {
    for (const file of walk(path.join(root, 'lib', 'operations')).filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f))) {
      const src = fs.readFileSync(file, 'utf8');
      expect(src, path.relative(root, file)).not.toMatch(/from ['"](next|next\/[^'"]*|@\/lib\/http\/[^'"]*)['"]/);
    }
  });

  it('lower layers never import the layers above them (types included)', () => {
    const offenders = [];
    for (const [file, deps] of typedGraph) {
      for (const [lower, upper] of ONE_WAY) {
        const inside = (f: string, dir: string) => path.relative(root, f).startsWith(`${dir}/`);
        for (const dep of deps) if (inside(file, lower) && inside(dep, upper)) offenders.push(`${path.relative(root, file)} -> ${path.relative(root, dep)}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

/**
 * Exported top-level `const f = (…) => …` in a source: call-graph tools and stack traces name a
 * function declaration, not an arrow held in a constant. A constant with a type annotation (a
 * handler typed by its framework) and arrows passed as callbacks are not counted.
 */
function exportedArrowConsts(source: ts.SourceFile): string[] {
  const found: string[] = [];
  for (const st of source.statements) {
    if (!ts.isVariableStatement(st) || !st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const d of st.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && !d.type && d.initializer && ts.isArrowFunction(d.initializer)) found.push(d.name.text);
    }
  }
  return found;
}

describe('readable to tools', () => {
  const sourceOf = (text: string) => ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);

  it('exported services and helpers under lib/ and db/ are function declarations', () => {
    const files = [...walk(path.join(root, 'lib')), ...walk(path.join(root, 'db'))].filter(
      (f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.d.ts') && !f.includes(`${path.sep}migrations${path.sep}`),
    );
    const offenders = files.flatMap((f) =>
      exportedArrowConsts(ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true)).map((n) => `${path.relative(root, f)}: ${n}`),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });

  it('finds an exported arrow constant, and leaves declarations, typed constants and inner arrows alone (the check itself)', () => {
    expect(exportedArrowConsts(sourceOf('export const a = async (x: number) => x;'))).toEqual(['a']);
    expect(
      exportedArrowConsts(
        sourceOf('export function b() { const inner = () => 1; return inner(); }\nexport const c: () => void = () => {};\nconst d = () => 2;\nexport const e = [1].map((x) => x);'),
      ),
    ).toEqual([]);
  });
});
