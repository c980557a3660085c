/**
 * How repetitive a body of posts reads (issue 34): two pure measures, used by the season test
 * (voice-season.test.ts) on generated posts and reusable by a world-level test on posts read from
 * the database.
 *
 *   distinctFourGramRatio(texts)  every number replaced by '#', a quoted question (the name of
 *                                 what a post is about, as a $TICKER is: not the NPC's words)
 *                                 one token, lowercased, split on whitespace; the share of
 *                                 distinct 4-word sequences among all of them (1: nothing
 *                                 repeats; a template corpus sits near 0.2).
 *   commonestShapeShare(texts)    a post's shape is its text lowercased with numbers, $TICKERS,
 *                                 @handles, #tags and quoted or given question texts masked; the
 *                                 share of posts that have the commonest shape.
 */

const NUMBER = /[-+]?\d[\d,]*(?:\.\d+)?/g;

/** Lowercased words with every number as '#' and a quoted question as one token. */
export function maskedWords(text: string): string[] {
  return text.replace(/"[^"]*"|“[^”]*”/g, '"q"').replace(NUMBER, '#').toLowerCase().split(/\s+/).filter(Boolean);
}

/** Distinct 4-grams over all 4-grams of the texts (numbers masked); 1 when there are none. */
export function distinctFourGramRatio(texts: readonly string[]): number {
  const seen = new Set<string>();
  let total = 0;
  for (const t of texts) {
    const w = maskedWords(t);
    for (let i = 0; i + 4 <= w.length; i++) {
      total++;
      seen.add(`${w[i]} ${w[i + 1]} ${w[i + 2]} ${w[i + 3]}`);
    }
  }
  return total ? seen.size / total : 1;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A post's shape: lowercased, with the given question texts, anything in quotes, "Will …?"
 * questions, $TICKERS, @handles, #tags and numbers masked, whitespace collapsed.
 */
export function shapeOf(text: string, questions: readonly string[] = []): string {
  let t = text;
  for (const q of questions) if (q) t = t.replace(new RegExp(escape(q), 'g'), 'Q');
  return t
    .replace(/"[^"]*"|“[^”]*”/g, 'Q')
    .replace(/\bWill\b[^?]{0,200}\?/g, 'Q')
    .replace(/\$[A-Za-z][A-Za-z0-9]{0,9}\b/g, '$T')
    .replace(/@[A-Za-z0-9_]+/g, '@U')
    .replace(/#[\p{L}\p{N}_]+/gu, '#T')
    .replace(NUMBER, '#')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** The share of texts that have the commonest shape (0 for none). */
export function commonestShapeShare(texts: readonly string[], opts: { questions?: readonly string[] } = {}): number {
  if (!texts.length) return 0;
  const counts = new Map<string, number>();
  let max = 0;
  for (const t of texts) {
    const s = shapeOf(t, opts.questions);
    const n = (counts.get(s) ?? 0) + 1;
    counts.set(s, n);
    if (n > max) max = n;
  }
  return max / texts.length;
}

/** The commonest shapes with their counts (for reports and failing-test messages). */
export function commonestShapes(texts: readonly string[], n = 5, opts: { questions?: readonly string[] } = {}): { shape: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const t of texts) {
    const s = shapeOf(t, opts.questions);
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  return [...counts].map(([shape, count]) => ({ shape, count })).sort((a, b) => b.count - a.count || a.shape.localeCompare(b.shape)).slice(0, n);
}
