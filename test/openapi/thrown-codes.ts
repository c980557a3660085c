/**
 * A static reading of which AppError codes each route can throw, for the test that compares
 * them with the codes the OpenAPI document declares (test/openapi/error-codes.test.ts).
 *
 * For every `route(contract, handler)` call in app/**\/route.ts, the handler's own code is read,
 * then every function and constant of lib/ it refers to, transitively: references are resolved by
 * the TypeScript checker (named imports, re-exports and aliases followed), so the reading is per
 * function, not per file. A code counts when it is the literal first argument of `new AppError`;
 * a function that builds the code in a variable (`new AppError(code, …)`) counts every error code
 * literal it spells. The reading over-approximates (a thrown code may be caught on the way, a
 * reference may sit on a branch the route never takes) and cannot see codes carried in data; the
 * test keeps an explicit allow-list for the over-approximations that are provably wrong.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ERROR_STATUS } from '@/lib/errors/app-error';

const root = path.resolve(import.meta.dirname, '../..');
const libDir = path.join(root, 'lib') + path.sep;

const walk = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? walk(p) : [p];
  });

const isErrorCode = (s: string) => Object.hasOwn(ERROR_STATUS, s);

/**
 * A reference the reading must not follow for some codes, because following it over-approximates
 * provably: `from` (a declaration as `file:name`, or '*' for any) refers to `to` (or '*' for
 * anything it refers to), and `codes` (or '*' for all) cannot come out of that reference; `except`
 * names referrers the cut does not apply to. What is cut stays cut further down the chain.
 */
export type TCut = { from: string; except?: readonly string[]; to: string; codes: readonly string[] | '*'; why: string };

/** What one route() call of a route file serves, and the codes its handler can reach. */
export type TRouteCodes = {
  /** The route file, relative to the repository. */
  file: string;
  /** The endpoint contract: its module under lib/contracts and its export name there. */
  contract: { file: string; name: string };
  /** Every code reachable from the handler, with one path of declarations that reaches it. */
  codes: Map<string, string[]>;
};

/** Reads every route file under app/ (one program, one checker). */
export const readThrownCodes = (cuts: readonly TCut[] = []): { routes: TRouteCodes[]; usedCuts: Set<TCut> } => {
  const files = walk(path.join(root, 'app')).filter((f) => f.endsWith(`${path.sep}route.ts`));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    baseUrl: root,
    paths: { '@/*': ['./*'] },
    resolveJsonModule: true,
    allowJs: false,
    noEmit: true,
    noLib: true,
    types: [],
  };
  // Only our own code can throw an AppError: packages (and the standard library) are read as
  // empty modules, which keeps the program small (names are resolved, types are never checked).
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, ...rest) =>
    fileName.includes(`${path.sep}node_modules${path.sep}`) || fileName.includes('/node_modules/')
      ? ts.createSourceFile(fileName, 'export {};', language)
      : getSourceFile(fileName, language, ...rest);
  const program = ts.createProgram(files, options, host);
  const checker = program.getTypeChecker();

  const inLib = (node: ts.Node) => {
    const f = node.getSourceFile().fileName;
    return path.resolve(f).startsWith(libDir) && !f.endsWith('.test.ts') && !f.includes('node_modules');
  };

  /** A declaration inside a function is part of that function's body, read with it. */
  const isLocal = (d: ts.Node) => {
    for (let p = d.parent; p; p = p.parent) if (ts.isFunctionLike(p)) return true;
    return false;
  };

  const declarationsOf = (id: ts.Node): ts.Node[] => {
    let sym: ts.Symbol | undefined = ts.isShorthandPropertyAssignment(id.parent) && id.parent.name === id
      ? checker.getShorthandAssignmentValueSymbol(id.parent)
      : checker.getSymbolAtLocation(id);
    if (!sym) return [];
    if (sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    return (sym.declarations ?? []).filter(
      (d) =>
        inLib(d) &&
        !isLocal(d) &&
        (ts.isFunctionDeclaration(d) ||
          ts.isVariableDeclaration(d) ||
          ts.isMethodDeclaration(d) ||
          ts.isPropertyAssignment(d) ||
          ts.isShorthandPropertyAssignment(d) ||
          ts.isClassDeclaration(d)),
    );
  };

  const nameOf = (d: ts.Node) => {
    const n = (d as { name?: ts.Node }).name;
    const where = path.relative(root, d.getSourceFile().fileName);
    return `${where}:${n && ts.isIdentifier(n) ? n.text : '?'}`;
  };

  /** The codes a node spells and the lib declarations it refers to. */
  const scan = (node: ts.Node) => {
    const codes = new Set<string>();
    const refs = new Set<ts.Node>();
    let dynamic = false;
    const literals = new Set<string>();
    const visit = (n: ts.Node) => {
      if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'AppError') {
        const first = n.arguments?.[0];
        if (first && ts.isStringLiteralLike(first)) codes.add(first.text);
        else dynamic = true;
      }
      if (ts.isStringLiteralLike(n) && isErrorCode(n.text)) literals.add(n.text);
      if (ts.isIdentifier(n)) for (const d of declarationsOf(n)) if (d !== node) refs.add(d);
      ts.forEachChild(n, visit);
    };
    visit(node);
    if (dynamic) for (const l of literals) codes.add(l);
    return { codes, refs };
  };

  const ids = new Map<ts.Node, number>();
  const idOf = (n: ts.Node) => {
    let id = ids.get(n);
    if (id === undefined) ids.set(n, (id = ids.size));
    return id;
  };
  /** The cuts some reference matched (one that never matches is stale). */
  const used = new Set<TCut>();

  const scanned = new Map<ts.Node, ReturnType<typeof scan>>();
  const scanOnce = (decl: ts.Node) => {
    let s = scanned.get(decl);
    if (!s) scanned.set(decl, (s = scan(ts.isVariableDeclaration(decl) ? (decl.initializer ?? decl) : decl)));
    return s;
  };

  /**
   * Codes reachable from a handler (breadth first over declaration and the codes cut on the way
   * to it), each with the chain of declarations that reaches it.
   */
  const reach = (handler: ts.Node, cuts: readonly TCut[]): Map<string, string[]> => {
    const out = new Map<string, string[]>();
    const cutOf = (from: string, to: string) =>
      cuts.filter((c) => (c.from === '*' || c.from === from) && !c.except?.includes(from) && (c.to === '*' || c.to === to));
    type TState = { decl: ts.Node | null; chain: string[]; cut: Set<string> | '*' };
    const seen = new Set<string>();
    const queue: TState[] = [{ decl: null, chain: [], cut: new Set() }];
    const keyOf = (st: TState) => `${st.decl ? idOf(st.decl) : -1}|${st.cut === '*' ? '*' : [...st.cut].sort().join(',')}`;
    while (queue.length) {
      const st = queue.shift()!;
      if (st.cut === '*') continue;
      const { codes, refs } = st.decl ? scanOnce(st.decl) : scan(handler);
      const here = st.chain.at(-1) ?? '(handler)';
      for (const c of codes) if (!st.cut.has(c) && !out.has(c)) out.set(c, st.chain.length ? st.chain : ['(handler)']);
      for (const r of refs) {
        const name = nameOf(r);
        const matched = cutOf(here, name);
        for (const c of matched) used.add(c);
        const cut = matched.some((c) => c.codes === '*') ? '*' : new Set([...st.cut, ...matched.flatMap((c) => c.codes as readonly string[])]);
        const next: TState = { decl: r, chain: [...st.chain, name], cut };
        const k = keyOf(next);
        if (seen.has(k)) continue;
        seen.add(k);
        queue.push(next);
      }
    }
    return out;
  };

  const result: TRouteCodes[] = [];
  for (const file of files) {
    const sf = program.getSourceFile(file);
    if (!sf) continue;
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'route' && n.arguments.length >= 2) {
        const [contract, handler] = n.arguments;
        if (contract && ts.isIdentifier(contract) && handler) {
          let sym = checker.getSymbolAtLocation(contract);
          if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
          const decl = sym?.declarations?.[0];
          result.push({
            file: path.relative(root, file),
            contract: { file: decl ? path.relative(root, decl.getSourceFile().fileName) : '?', name: sym?.name ?? contract.text },
            codes: reach(handler, cuts),
          });
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return { routes: result, usedCuts: used };
};
