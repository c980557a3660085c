/**
 * POST /api/a2a's document lists the result of every A2A method (lib/contracts/a2a.ts
 * A2A_RESULTS): the method table and that list are one and the same, so what the document
 * promises is what the transport holds each result to (lib/a2a/service/dispatch.ts, in tests).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { A2A_METHOD_TABLE } from '@/lib/a2a/methods';
import { A2A_RESULTS, a2aRpc } from '@/lib/contracts/a2a';
import { operationOf } from '@/lib/openapi/document';

const jsonSchema = (s: z.ZodType) => JSON.stringify(z.toJSONSchema(s, { io: 'output', unrepresentable: 'any' }));

describe('the A2A results in the document', () => {
  it('every method declares its result from A2A_RESULTS, and A2A_RESULTS names only methods', () => {
    const results = A2A_RESULTS as Record<string, z.ZodType>;
    for (const m of A2A_METHOD_TABLE) expect(m.result, m.name).toBe(results[m.name]);
    expect(Object.keys(results).sort()).toEqual(A2A_METHOD_TABLE.map((m) => m.name).sort());
  });

  it("POST /api/a2a's success answer lists every method's result, a task and a message", () => {
    const op = operationOf(a2aRpc) as { responses: Record<string, { content: Record<string, { schema: unknown }> }> };
    const text = JSON.stringify(op.responses['200']!.content['application/json']!.schema);
    for (const m of A2A_METHOD_TABLE) {
      const own = jsonSchema(m.result).replace(/^\{"\$schema":"[^"]+",/, '{');
      expect(text.includes(own), m.name).toBe(true);
    }
    expect(text).toContain('"kind":{"type":"string","const":"task"}');
    expect(text).toContain('"kind":{"type":"string","const":"message"}');
    expect(text).not.toMatch(/"result":\{\}/);
  });
});
