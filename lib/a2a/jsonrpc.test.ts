import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RPC, classifyBody, parseCall } from './jsonrpc';

describe('parseCall', () => {
  it('accepts a call and a notification', () => {
    expect(parseCall({ jsonrpc: '2.0', id: 7, method: 'm', params: { a: 1 } })).toEqual({ ok: true, call: { id: 7, isNotification: false, method: 'm', params: { a: 1 } } });
    expect(parseCall({ jsonrpc: '2.0', method: 'm' })).toEqual({ ok: true, call: { id: null, isNotification: true, method: 'm', params: undefined } });
    expect(parseCall({ jsonrpc: '2.0', id: null, method: 'm' })).toMatchObject({ ok: true, call: { id: null, isNotification: false } });
  });

  it('refuses what is not a request with -32600, echoing a valid id', () => {
    const cases: [unknown, unknown][] = [
      [null, null],
      [[1], null],
      [{ jsonrpc: '2.0', id: 'x' }, 'x'],
      [{ jsonrpc: '2', id: 3, method: 'm' }, 3],
      [{ jsonrpc: '2.0', id: 3, method: '' }, 3],
      [{ jsonrpc: '2.0', id: 3, method: 'm', params: 'p' }, 3],
      [{ jsonrpc: '2.0', id: { a: 1 }, method: 'm' }, null],
      [{ jsonrpc: '2.0', id: Number.NaN, method: 'm' }, null],
    ];
    for (const [raw, id] of cases) {
      const r = parseCall(raw);
      expect(r.ok, JSON.stringify(raw)).toBe(false);
      if (!r.ok) expect(r.response).toMatchObject({ jsonrpc: '2.0', id, error: { code: RPC.INVALID_REQUEST } });
    }
  });

  it('never throws, whatever JSON it gets', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = parseCall(v);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 200 },
    );
  });
});

describe('classifyBody', () => {
  it('an empty batch is one invalid request; a batch and a single call are told apart', () => {
    expect(classifyBody([])).toMatchObject({ kind: 'invalid', response: { id: null, error: { code: RPC.INVALID_REQUEST } } });
    expect(classifyBody([{}, {}])).toEqual({ kind: 'batch', raws: [{}, {}] });
    expect(classifyBody({ a: 1 })).toEqual({ kind: 'single', raw: { a: 1 } });
  });
});
