/** LIKE / ILIKE patterns from user text: its `\`, `%` and `_` match themselves (PostgreSQL's default escape is `\`). Pure. */
export function escapeLike(s: string) {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A pattern matching any text that contains `s`. */
export function containsPattern(s: string) {
  return `%${escapeLike(s)}%`;
}
