/**
 * Threads after visibility: a comment the reader may not see takes its whole subtree with it.
 * A reply answers its parent; shown without it, it would be out of context (and often quotes or
 * names the hidden author), so replies under a hidden comment are left out too, even when a third
 * person wrote them. Pure, no I/O.
 */

type TThreadRow = { id: string; parent_comment_id: string | null };

/**
 * The rows whose every ancestor is among `rows` (top-level comments always are), in their
 * order. `rows` are the visible comments of one post; a parent missing from them was hidden.
 */
export function keepVisibleThreads<T extends TThreadRow>(rows: readonly T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const kept = new Map<string, boolean>();
  const isKept = (row: T): boolean => {
    // Walk up to the first known answer (or the top), then record it for the whole chain.
    const chain: T[] = [];
    let at: T | undefined = row;
    let answer = true;
    while (at) {
      const known = kept.get(at.id);
      if (known !== undefined) {
        answer = known;
        break;
      }
      chain.push(at);
      // Guard against a malformed cycle: a comment met twice in one walk is not kept.
      kept.set(at.id, false);
      if (at.parent_comment_id === null) break;
      at = byId.get(at.parent_comment_id);
      if (!at) answer = false;
    }
    for (const r of chain) kept.set(r.id, answer);
    return answer;
  };
  return rows.filter(isKept);
}
