/**
 * Structural rules for components/: the folders form layers. A folder (components/<name>, or a
 * file at the top of components/) may import another only if that one never imports it back,
 * directly or through others, so a shared piece moves to a lower folder (components/ui, or the
 * folder that owns it) instead of two folders reaching each other. Every import counts, `import
 * type` and `import()` included: a type-only loop still ties the two folders' changes together.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const componentsDir = path.join(root, 'components');

const walk = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
        const p = path.join(dir, d.name);
        return d.isDirectory() ? walk(p) : [p];
      })
    : [];

const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');

/** The file a specifier names ('@/…' or relative), or null for a package. */
const resolve = (from: string, spec: string) => {
  const base = spec.startsWith('@/') ? path.join(root, spec.slice(2)) : spec.startsWith('.') ? path.resolve(path.dirname(from), spec) : null;
  if (!base) return null;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? null;
};

/** Every module a source file names: imports and re-exports (type-only too) and `import('…')`. */
function importedSpecifiers(file: string, src: string): string[] {
  const source = ts.createSourceFile(file, src, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const specs: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specs.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      specs.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specs.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specs;
}

/** The import graph of components/: each file and the files under components/ it imports. */
const componentGraph = () => {
  const files = walk(componentsDir).filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps = importedSpecifiers(file, fs.readFileSync(file, 'utf8'))
      .map((spec) => resolve(file, spec))
      .filter((d): d is string => d !== null && d.startsWith(`${componentsDir}${path.sep}`));
    graph.set(file, deps);
  }
  return graph;
};

/** Every cycle a depth-first search meets, as "a -> b -> a" (one per back edge). */
function findCycles(graph: Map<string, string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      if (!graph.has(dep)) continue;
      if (state.get(dep) === 'open') cycles.push([...stack.slice(stack.indexOf(dep)), dep].join(' -> '));
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/** components/<name> for a file in a folder; the file itself for one at the top (components/providers.tsx). */
const folderOf = (file: string) => {
  const parts = rel(file).split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : rel(file);
};

/** The folder graph: an edge a -> b when any file of a imports a file of b. */
const folderGraph = (graph: Map<string, string[]>) => {
  const folders = new Map<string, Set<string>>();
  for (const [file, deps] of graph) {
    const from = folderOf(file);
    const set = folders.get(from) ?? new Set<string>();
    for (const dep of deps) if (folderOf(dep) !== from) set.add(folderOf(dep));
    folders.set(from, set);
  }
  return new Map([...folders].map(([k, v]) => [k, [...v].sort()]));
};

describe('components/ imports run one way', () => {
  const graph = componentGraph();

  it('sees the tree (the graph is not empty, and components import components)', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect([...graph.values()].some((deps) => deps.length > 0)).toBe(true);
  });

  it('no cycle between folders of components/, counting import type', () => {
    expect(findCycles(folderGraph(graph))).toEqual([]);
  });

  it('no cycle between files of components/ either', () => {
    const byName = new Map([...graph].map(([f, deps]) => [rel(f), deps.map(rel)]));
    expect(findCycles(byName)).toEqual([]);
  });

  it('markets and posts: posts shows a market inside a post, markets never imports posts', () => {
    const folders = folderGraph(graph);
    expect(folders.get('components/posts')).toContain('components/markets');
    expect(folders.get('components/markets')).not.toContain('components/posts');
  });

  it('finds a cycle when there is one, through import type and import() too (the check itself)', () => {
    expect(importedSpecifiers('a.tsx', "import type { T } from '@/components/b/x';\nexport type { U } from '../c/y';\nconst L = lazy(() => import('./z'));\ntype V = import('@/components/d/w').W;")).toEqual([
      '@/components/b/x',
      '../c/y',
      './z',
      '@/components/d/w',
    ]);
    expect(findCycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual(['a -> b -> c -> a']);
    expect(findCycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([]);
    const files = new Map([
      [path.join(componentsDir, 'posts', 'card.tsx'), [path.join(componentsDir, 'markets', 'panel.tsx')]],
      [path.join(componentsDir, 'markets', 'panel.tsx'), []],
      [path.join(componentsDir, 'markets', 'detail.tsx'), [path.join(componentsDir, 'posts', 'card.tsx')]],
    ]);
    expect(findCycles(folderGraph(files))).toEqual(['components/markets -> components/posts -> components/markets']);
  });
});
