/**
 * Cost of the text rules: every rule that looks at client text is fed its worst accepted input
 * and ten times more, and must answer fast. Quadratic work (Intl.Segmenter's grapheme iteration
 * here: 64,000 characters took over a second) fails this test long before it fails a server.
 *
 * Two parts: the pure text functions the services run (grapheme counting, #tags, @mentions, the
 * checks of lib/http/limits.ts), and every string the registry's request schemas accept, parsed
 * by its own schema (patterns, lengths, refinements).
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpoints } from '@/lib/contracts';
import { RAW_UNITS_PER_CHAR } from '@/lib/contracts/common';
import { COMMENT_MAX_CHARS, parseMentions, parseTags, visibleLength } from '@/lib/posts/text';
import { isValidUsername } from '@/lib/users/names';
import { findBadText } from '@/lib/operations/bounds';
import { DEFAULT_JSON_BODY_LIMIT, MAX_JSON_DEPTH, jsonDepthExceeds } from './limits';

/**
 * The worst accepted input: generous for a loaded 2-core CI machine running the suite's files in
 * parallel (50 ms flaked there at 68 ms on a GC pause), still five times under what the quadratic
 * segmenter cost (1.1 s); the scaling check below is what catches quadratic work.
 */
const FAST_MS = 200;
/**
 * Ten times the input may cost at most this many times the worst accepted input (or FAST_MS):
 * linear work scales by about 10, quadratic by about 100. A ratio, not a second absolute bound,
 * so a busy machine slowing both runs alike does not fail it.
 */
const SCALE_LIMIT = 30;

/** Checks `rule` on each hostile text of size n (fast) and of 10n (scaling linearly). */
const expectLinear = (label: string, n: number, rule: (text: string) => unknown) => {
  const small = hostile(n);
  const large = hostile(n * 10);
  for (const kind of Object.keys(small)) {
    const once = cost(() => rule(small[kind]!));
    expect(once, `${label}: ${kind} × ${n}`).toBeLessThan(FAST_MS);
    expect(cost(() => rule(large[kind]!)), `${label}: ${kind} × ${n * 10}`).toBeLessThan(Math.max(FAST_MS, SCALE_LIMIT * once));
  }
};

/** Adversarial texts of about n UTF-16 units: each stresses a different rule. */
const hostile = (n: number): Record<string, string> => ({
  ascii: 'a'.repeat(n),
  spaces: ' '.repeat(n),
  tags: '#a'.repeat(n / 2),
  hashes: '#'.repeat(n),
  mentions: '@abc '.repeat(n / 5),
  ats: '@'.repeat(n),
  combining: 'e' + '\u0301'.repeat(n - 1),
  emoji: '👨‍👩‍👧‍👦'.repeat(Math.ceil(n / 11)),
  flags: '🇫🇷'.repeat(n / 4),
  hangul: '\u1100\u1161\u11A8'.repeat(n / 3),
  digits: '9'.repeat(n),
  commas: ','.repeat(n),
});

const timed = (fn: () => unknown) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};

/** The slowest run would hide nothing; the fastest of three hides scheduling noise and GC pauses. */
const cost = (fn: () => unknown) => Math.min(timed(fn), timed(fn), timed(fn));

describe('text rules cost linear time', () => {
  // The services' text rules run on schema-checked text: at most the longest raw text a schema
  // accepts (a comment). The schemas and the wrapper's checks see anything up to the body limit.
  const worstText = COMMENT_MAX_CHARS * RAW_UNITS_PER_CHAR;
  const worst = DEFAULT_JSON_BODY_LIMIT;

  it.each([
    ['visibleLength', visibleLength],
    ['parseTags', parseTags],
    ['parseMentions', parseMentions],
    ['isValidUsername', isValidUsername],
  ] as const)('%s answers fast for the worst input and ten times more', (name, rule) => {
    expectLinear(name, worstText, rule as (text: string) => unknown);
  });

  it.each([
    ['findBadText', findBadText],
    ['jsonDepthExceeds', (s: string) => jsonDepthExceeds(s, MAX_JSON_DEPTH)],
  ] as const)('%s (run on whole bodies) answers fast for the largest body and ten times more', (name, rule) => {
    expectLinear(name, worst, rule as (text: string) => unknown);
  });

  it('deep JSON is measured without recursion: a million brackets in one pass', () => {
    const deep = '['.repeat(1_000_000);
    expect(jsonDepthExceeds(deep, MAX_JSON_DEPTH)).toBe(true);
    expect(cost(() => jsonDepthExceeds(deep, MAX_JSON_DEPTH))).toBeLessThan(FAST_MS);
  });

  it('every request schema answers fast for every hostile string in every string field', () => {
    let fields = 0;
    for (const e of endpoints) {
      for (const schema of [e.params, e.query, e.body]) {
        const shape = (schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape
          ?? (schema as { _zod?: { def?: { in?: { shape?: Record<string, z.ZodType> } } } } | undefined)?._zod?.def?.in?.shape;
        if (!schema || !shape) continue;
        for (const field of Object.keys(shape)) {
          fields++;
          expectLinear(`${e.id} ${field}`, worst, (text) => schema.safeParse({ [field]: text }));
        }
      }
    }
    expect(fields).toBeGreaterThan(40);
  });
});
