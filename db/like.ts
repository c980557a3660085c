/** LIKE / ILIKE patterns from user text: its `\`, `%` and `_` match themselves (PostgreSQL's default escape is `\`). Pure. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A pattern matching any text that contains `s`. */
export const containsPattern = (s: string) => `%${escapeLike(s)}%`;
