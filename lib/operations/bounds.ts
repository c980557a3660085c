/**
 * Bounds every operation is held to, whichever transport carries it: acceptable text (no control
 * characters, no lone surrogates, checked in linear time) and deadlines. Pure, no I/O. An
 * operation may declare its own deadline (lib/contracts/endpoint.ts `deadlineMs`).
 */

/** A request, from the start of reading its body to its answer; the tick and uploads declare their own. */
export const DEFAULT_DEADLINE_MS = 10_000;

/**
 * Characters no text field accepts: C0 controls other than tab, line feed and carriage return
 * (NUL among them, which PostgreSQL text cannot store).
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
/** In a /u pattern a surrogate pair is one code point, so \p{Cs} matches only a lone half. */
const BAD = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|\p{Cs}/u;

/** Why a string is refused, or null when it is acceptable text. One linear pass for the usual (good) case. */
export function badTextReason(s: string): string | null {
  if (!BAD.test(s)) return null;
  return CONTROL.test(s) ? 'contains a control character' : 'contains a lone surrogate (not valid Unicode)';
}

export type TBadValue = { path: string; reason: string };

/**
 * The first string (value or object key) in a parsed JSON value, path or query that is not
 * acceptable text, with its path; null when every string is. Iterative, so depth cannot overflow
 * the stack; linear in the size of the value.
 */
export function findBadText(value: unknown): TBadValue | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const reason = badTextReason(v);
      if (reason) return { path, reason };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], path ? `${path}.${i}` : String(i)]);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const reason = badTextReason(k);
        if (reason) return { path: path ? `${path}.${k}` : k, reason: `key ${reason}` };
        stack.push([child, path ? `${path}.${k}` : k]);
      }
    }
  }
  return null;
}
