/**
 * Cost of the text rules: every rule that looks at client text is fed its worst accepted input
 * and ten times more, and ten times the input must cost about ten times as much, never a hundred.
 * Quadratic work (Intl.Segmenter's grapheme iteration here: 64,000 characters took over a second)
 * fails this test long before it fails a server.
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
 * Ten times the input may cost at most this many times as much: linear work scales by about 10
 * (up to about 22 measured, and 41 once on a two-core machine with a load average of 7, the
 * collector and the caches paying for larger strings), quadratic by about 100. A ratio of two inputs measured side by side, not a bound in
 * milliseconds, so a slow or busy machine, which slows both alike, does not fail it; absolute
 * figures are `npm run bench`'s.
 */
const SCALE_LIMIT = 60;

/** Checks that `rule` on each hostile text of size 10n costs at most SCALE_LIMIT times size n. */
const expectLinear = (label: string, n: number, rule: (text: string) => unknown) => {
  const small = hostile(n);
  const large = hostile(n * 10);
  for (const kind of Object.keys(small)) {
    const ratio = settledRatio(() => rule(small[kind]!), () => rule(large[kind]!));
    expect(ratio, `${label}: ${kind} × ${n * 10} against × ${n}`).toBeLessThan(SCALE_LIMIT);
  }
};

/** Adversarial texts of about n UTF-16 units: each stresses a different rule (built once per n). */
const hostile = (n: number): Record<string, string> => (built[n] ??= build(n));
const built: Record<number, Record<string, string>> = {};
const build = (n: number): Record<string, string> => ({
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

/**
 * Runs `fn` `times` times; answers the CPU time of the batch in ms. CPU time, not elapsed time:
 * on a busy machine the process waits for a core, and a long batch waits more often than a short
 * one, which would skew the ratio; the work the process does is the same.
 */
const timed = (fn: () => unknown, times: number) => {
  const t = process.cpuUsage();
  for (let i = 0; i < times; i++) fn();
  const { user, system } = process.cpuUsage(t);
  return (user + system) / 1000;
};

/**
 * A batch of the small input must last this long before two batches are compared: a run of a few
 * microseconds is the timer's noise, not the rule's cost. Not a limit: a rule slower than this
 * runs once per batch.
 */
const BATCH_MS = 0.05;

/**
 * How many times `large` costs `small`: the fastest of five interleaved batches of each (noise
 * only ever adds time: a GC pause, another process), with as many repetitions per batch as make
 * the small one last BATCH_MS.
 */
const costRatio = (small: () => unknown, large: () => unknown) => {
  small();
  large(); // compiled and warm before anything is compared
  let times = 1;
  while (times < 1 << 16 && timed(small, times) < BATCH_MS) times *= 2;
  let bestSmall = Infinity;
  let bestLarge = Infinity;
  for (let i = 0; i < 5; i++) {
    bestSmall = Math.min(bestSmall, timed(small, times));
    bestLarge = Math.min(bestLarge, timed(large, times));
  }
  return bestLarge / Math.max(bestSmall, Number.EPSILON);
};

/**
 * costRatio, measured again while over the limit (up to three times), the lowest counting: a busy
 * machine can stall one measurement (86 once in CI, the collector running in the large half), while
 * quadratic work is over the limit every time.
 */
const settledRatio = (small: () => unknown, large: () => unknown) => {
  let ratio = Infinity;
  for (let attempt = 0; attempt < 3 && ratio >= SCALE_LIMIT; attempt++) ratio = Math.min(ratio, costRatio(small, large));
  return ratio;
};

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
    // A recursive measure overflows the stack long before a million levels; a linear one costs
    // ten times a hundred thousand.
    const deep = '['.repeat(1_000_000);
    expect(jsonDepthExceeds(deep, MAX_JSON_DEPTH)).toBe(true);
    const tenth = '['.repeat(100_000);
    expect(settledRatio(() => jsonDepthExceeds(tenth, MAX_JSON_DEPTH), () => jsonDepthExceeds(deep, MAX_JSON_DEPTH))).toBeLessThan(SCALE_LIMIT);
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
    // A fixed amount of work (every field, every hostile text, five rounds): about 10 s alone and
    // three times that on a saturated two-core machine. The timeout only guards against a hang.
  }, 180_000);
});
