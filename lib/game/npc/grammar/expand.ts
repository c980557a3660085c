/**
 * A small recursive text grammar (issue 34): rules map a name to alternatives; an alternative is
 * prose with `{rule}` (expand that rule), `{rule?}` (expand it half the time, else nothing) and
 * `[fact]` (the fact's text, verbatim). Pure: every choice is drawn from the rng given.
 *
 * Facts are protected from the case style (a lowercase voice still writes $ORBT, YES and the
 * question as they are): the prose is expanded around markers, styled, then the facts go in.
 */
import type { TRng } from '@/lib/game/rng';

export type TRules = Readonly<Record<string, readonly string[]>>;
export type TFacts = Readonly<Record<string, string>>;
export type TCaseStyle = 'plain' | 'lower' | 'loose';

const MAX_DEPTH = 12;
const REF = /\{([a-zA-Z0-9_]+)(\?)?\}|\[([a-zA-Z0-9_]+)\]/g;

/** Expands `start` into prose with fact markers (\u0001n\u0002, n an index into `used`). */
function expandRaw(rules: TRules, name: string, rng: TRng, facts: TFacts, used: string[], depth: number): string {
  const alts = rules[name];
  if (!alts || !alts.length || depth > MAX_DEPTH) return '';
  const alt = alts[rng.int(0, alts.length - 1)]!;
  return alt.replace(REF, (_m, rule: string | undefined, optional: string | undefined, fact: string | undefined) => {
    if (fact !== undefined) {
      const value = facts[fact];
      if (value === undefined || value === '') return '';
      used.push(value);
      return `\u0001${used.length - 1}\u0002`;
    }
    if (optional && !rng.chance(0.5)) return '';
    return expandRaw(rules, rule!, rng, facts, used, depth + 1);
  });
}

const tidy = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.!?;:…])/g, '$1')
    .replace(/([,;:])(?=[,.;:!?])/g, '')
    .replace(/\.{2,}/g, '.')
    .replace(/([!?])\./g, '$1')
    .trim();

/** The first letter of every sentence upper case (a plain voice). */
const sentenceCase = (s: string) => s.replace(/(^|[.!?]\s+)([a-z])/g, (_m, pre: string, c: string) => pre + c.toUpperCase());

function style(s: string, caseStyle: TCaseStyle): string {
  if (caseStyle === 'lower') return s.toLowerCase();
  if (caseStyle === 'loose') return s.replace(/\.(\s|$)/g, '$1').replace(/^([A-Z])/, (c) => c.toLowerCase());
  return sentenceCase(s);
}

/** Expands rule `start` with the facts, in the case style; whitespace and punctuation tidied. */
export function expand(rules: TRules, start: string, rng: TRng, facts: TFacts = {}, caseStyle: TCaseStyle = 'plain'): string {
  const used: string[] = [];
  const raw = tidy(expandRaw(rules, start, rng, facts, used, 0));
  // Markers are neither letters nor sentence ends: the style leaves them (and so the facts) alone.
  // The prose is tidied around the markers; the facts go in untouched (a question keeps its own punctuation).
  return style(raw, caseStyle)
    .replace(/\u0001(\d+)\u0002/g, (_m, i: string) => used[Number(i)]!)
    .trim();
}

/** The prose of an expansion without its facts (what the voice's own words said: checked for trade words). */
export function proseOf(text: string, facts: TFacts): string {
  let t = text;
  for (const v of Object.values(facts)) if (v) t = t.split(v).join(' ');
  return t;
}
