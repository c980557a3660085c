/**
 * Which methods a concrete /api path serves, from the endpoint registry: for the 405 answer's
 * Allow header and the CORS preflight. Pure after the first call (the table is compiled once).
 *
 * Where templates overlap (/api/users/by-username/{username} and /api/users/{userId}/follow both
 * match /api/users/by-username/follow), the one Next.js routes to wins: at the first segment where
 * they differ, a static segment beats a parameter.
 */
import { endpoints } from '@/lib/contracts';

type TRow = { segments: string[]; pattern: RegExp; methods: Set<string> };

let table: TRow[] | undefined;

const compile = (): TRow[] => {
  const byPath = new Map<string, TRow>();
  for (const e of endpoints) {
    if (e.hidden) continue;
    let row = byPath.get(e.path);
    if (!row) {
      const segments = e.path.split('/').filter(Boolean);
      const source = segments.map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
      row = { segments, pattern: new RegExp(`^/${source}/?$`), methods: new Set() };
      byPath.set(e.path, row);
    }
    row.methods.add(e.method);
  }
  return [...byPath.values()];
};

/** Static beats parameter at the first segment where two templates differ. */
const moreSpecific = (a: TRow, b: TRow) => {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const sa = !a.segments[i]!.startsWith('{');
    const sb = !b.segments[i]!.startsWith('{');
    if (sa !== sb) return sa ? a : b;
  }
  return a;
};

/** The methods the path serves (GET implies HEAD), sorted; empty when no route matches it. */
export function methodsForPath(pathname: string): string[] {
  table ??= compile();
  let best: TRow | undefined;
  for (const row of table) if (row.pattern.test(pathname)) best = best ? moreSpecific(best, row) : row;
  if (!best) return [];
  const methods = new Set(best.methods);
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
