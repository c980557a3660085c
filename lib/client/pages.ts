/** Infinite-query pages, flattened. Pure. */

/**
 * The items of all pages in page order, each key once (the first wins): rows that moved between
 * pages while they loaded (offsets shift, a message arrives live and in a page) show once.
 */
export function flattenUnique<P, T>(pages: readonly P[], itemsOf: (page: P) => readonly T[], keyOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const page of pages) {
    for (const item of itemsOf(page)) {
      const k = keyOf(item);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(item);
    }
  }
  return out;
}
