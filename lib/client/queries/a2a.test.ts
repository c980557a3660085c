import { describe, expect, it } from 'vitest';
import { describeSchemaType, exampleParams, groupMethods, listParamFields, parseParamsText, readRpcOutcome, type TA2aMethod } from './a2a';

// Schemas as z.toJSONSchema writes the method table's params (GET /api/a2a/methods).
const BLOCK = {
  type: 'object',
  properties: {
    userId: { type: 'string', minLength: 1, maxLength: 200, description: 'the other player: id or username' },
    reason: { type: 'string', maxLength: 500, description: 'why' },
  },
  required: ['userId'],
  additionalProperties: false,
};
const REPORT = {
  type: 'object',
  properties: {
    evidence: { type: 'string', maxLength: 2048, format: 'uri' },
    reason: { type: 'string', minLength: 10, maxLength: 2000 },
    category: { type: 'string', enum: ['spam', 'other'] },
    userId: { type: 'string', minLength: 1 },
  },
  required: ['userId', 'category', 'reason'],
};
const PAYMENT = {
  type: 'object',
  properties: {
    amount: { anyOf: [{ type: 'number', exclusiveMinimum: 0, maximum: 1000000 }, { type: 'string', maxLength: 40 }] },
    metadata: { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
  },
  required: ['amount'],
};
const DISCOVER = {
  type: 'object',
  properties: {
    filters: { type: 'object', properties: { strategies: { type: 'array', items: { type: 'string' } }, minReputation: { type: 'number', minimum: 0 } } },
    limit: { default: 20, type: 'integer', minimum: 1, maximum: 100 },
  },
};

describe('describeSchemaType', () => {
  it('writes enums, unions, arrays and records as a reader would', () => {
    expect(describeSchemaType({ type: 'string' })).toBe('string');
    expect(describeSchemaType(REPORT.properties.category)).toBe('"spam" | "other"');
    expect(describeSchemaType(PAYMENT.properties.amount)).toBe('number | string');
    expect(describeSchemaType(DISCOVER.properties.filters.properties.strategies)).toBe('string[]');
    expect(describeSchemaType(PAYMENT.properties.metadata)).toBe('Record<string, string | number>');
    expect(describeSchemaType({})).toBe('any');
  });
});

describe('listParamFields', () => {
  it('lists required fields first, with their description and rules', () => {
    const fields = listParamFields(REPORT);
    expect(fields.map((f) => [f.name, f.isRequired])).toEqual([
      ['reason', true],
      ['category', true],
      ['userId', true],
      ['evidence', false],
    ]);
    expect(fields[1]).toMatchObject({ type: 'string', rules: ['one of: spam, other'] });
    expect(listParamFields(BLOCK)[0]).toMatchObject({ name: 'userId', type: 'string', description: 'the other player: id or username', rules: ['1–200 chars'] });
  });

  it("nests an object's fields, and takes a union's bounds and a default into the rules", () => {
    const [filters, limit] = listParamFields(DISCOVER);
    expect(filters).toMatchObject({ name: 'filters', type: 'object', isRequired: false });
    expect(filters!.children.map((c) => c.name)).toEqual(['strategies', 'minReputation']);
    expect(limit!.rules).toEqual(['≥ 1', '≤ 100', 'default 20']);
    expect(listParamFields(PAYMENT)[0]!.rules).toEqual(['> 0', '≤ 1000000', '≤ 40 chars']);
  });

  it('reads no fields from a schema without properties, or from something that is not one', () => {
    expect(listParamFields({ type: 'object' })).toEqual([]);
    expect(listParamFields(null)).toEqual([]);
  });
});

describe('exampleParams', () => {
  it('fills every required field with a value of its type that meets its bounds, and leaves optional ones out', () => {
    expect(exampleParams(BLOCK)).toEqual({ userId: '<userId>' });
    const report = exampleParams(REPORT);
    expect(report).toEqual({ userId: '<userId>', category: 'spam', reason: 'Example reason text' });
    expect((report.reason as string).length).toBeGreaterThanOrEqual(10);
    expect(exampleParams(PAYMENT)).toEqual({ amount: 1 });
    expect(exampleParams(DISCOVER)).toEqual({});
  });
});

describe('parseParamsText', () => {
  it('takes an object or an array, nothing for empty text, and refuses other JSON and non-JSON', () => {
    expect(parseParamsText('{"a": 1}')).toEqual({ ok: true, params: { a: 1 } });
    expect(parseParamsText('[{"a": 1}]')).toEqual({ ok: true, params: [{ a: 1 }] });
    expect(parseParamsText('  ')).toEqual({ ok: true, params: undefined });
    expect(parseParamsText('5')).toMatchObject({ ok: false });
    expect(parseParamsText('null')).toMatchObject({ ok: false });
    expect(parseParamsText('{"a": ')).toMatchObject({ ok: false, message: expect.stringMatching(/^Not valid JSON/) });
  });
});

describe('readRpcOutcome', () => {
  it('reads a result, a JSON-RPC error with its REST code, a refusal before JSON-RPC, and no answer', () => {
    expect(readRpcOutcome({ status: 200, body: { jsonrpc: '2.0', id: 1, result: null } })).toEqual({ kind: 'result', result: null });
    expect(
      readRpcOutcome({ status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params: x', data: { code: 'VALIDATION_ERROR', status: 400 } } } }),
    ).toEqual({ kind: 'rpc-error', code: -32602, name: 'Invalid params', message: 'Invalid params: x', dataCode: 'VALIDATION_ERROR' });
    expect(readRpcOutcome({ status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found: x' } } })).toMatchObject({
      kind: 'rpc-error',
      name: 'Method not found',
      dataCode: null,
    });
    expect(readRpcOutcome({ status: 401, body: { success: false, error: { code: 'UNAUTHORIZED', message: 'no' } } })).toEqual({
      kind: 'http-error',
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'no',
    });
    expect(readRpcOutcome({ status: 502, body: null })).toEqual({ kind: 'http-error', status: 502, code: null, message: 'HTTP 502' });
    expect(readRpcOutcome({ status: 0, body: null })).toEqual({ kind: 'network' });
  });
});

describe('groupMethods', () => {
  it('orders the groups as the page lists them and leaves empty ones out', () => {
    const m = (name: string, group: TA2aMethod['group']): TA2aMethod => ({ name, group, aliases: [], summary: '', kind: 'read', params: { type: 'object', properties: {} } });
    const groups = groupMethods([m('moderation.getBlocks', 'moderation'), m('a2a.getMarketData', 'markets'), m('a2a.getMarketPrices', 'markets')]);
    expect(groups.map((g) => [g.value, g.methods.map((x) => x.name)])).toEqual([
      ['markets', ['a2a.getMarketData', 'a2a.getMarketPrices']],
      ['moderation', ['moderation.getBlocks']],
    ]);
  });
});
