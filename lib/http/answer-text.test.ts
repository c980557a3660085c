/**
 * answerText (lib/http/body.ts) writes a value two top-level fields share once, and must give
 * exactly JSON.stringify's text: held here for shared lists, nested sharing, values without a JSON
 * form, toJSON, and arbitrary JSON-like payloads (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerText } from './body';

describe('answerText', () => {
  it('is JSON.stringify when a list is given under two names', () => {
    const questions = [{ id: 'a', yes: 0.5, at: new Date(0) }, { id: 'b', no: null }];
    const payload = { success: true, questions, markets: questions, count: 2, skipped: undefined, fn: () => 1, total: 2 };
    expect(answerText(payload)).toBe(JSON.stringify(payload));
    expect(JSON.parse(answerText(payload)).markets).toEqual(JSON.parse(JSON.stringify(questions)));
  });

  it('is JSON.stringify for shared objects, nested sharing and objects with toJSON', () => {
    const inner = { a: [1, 2, { b: 'c' }] };
    const shared = { inner, again: inner };
    expect(answerText({ x: shared, y: shared, z: inner })).toBe(JSON.stringify({ x: shared, y: shared, z: inner }));
    const withToJson = { toJSON: () => ({ swapped: true }), field: 1 };
    expect(answerText(withToJson)).toBe(JSON.stringify(withToJson));
    expect(answerText({ d: withToJson, e: withToJson })).toBe(JSON.stringify({ d: withToJson, e: withToJson }));
    expect(answerText([1, 2])).toBe('[1,2]');
    expect(answerText(null)).toBe('null');
  });

  it('is JSON.stringify for any JSON-like payload, sharing or not', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.string(), { maxLength: 3 }), (payload, aliases) => {
        const values = Object.values(payload);
        const withShared: Record<string, unknown> = { ...payload };
        aliases.forEach((name, i) => {
          if (values.length) withShared[`alias-${name}`] = values[i % values.length];
        });
        expect(answerText(withShared)).toBe(JSON.stringify(withShared));
      }),
      { numRuns: 300 },
    );
  });
});
