/**
 * The MCP tools: one per method of the A2A table (lib/a2a/methods), generated, so a method added
 * there is a tool here with no work. Pure (no I/O): the list is built once per process.
 *
 * - name: the method's name as is (`a2a.getMarketData`): MCP's tool names may hold letters,
 *   digits, `_`, `-` and `.` (1 to 128 characters). Clients whose own tool names may not hold a
 *   dot (some model APIs) send `a2a_getMarketData`: `findTool` accepts it, and the method's
 *   aliases, in both spellings.
 * - inputSchema: the params as JSON Schema, as GET /api/a2a/methods gives them (the input side:
 *   a default makes a field optional).
 * - outputSchema: the method's declared result (lib/contracts/a2a.ts A2A_RESULTS) in draft-07
 *   (`objectSchema` says why), input side as well: a method answers a value its result schema accepts (the A2A transport holds it to that
 *   in tests), and the official client validates `structuredContent` against this, so a strict
 *   output form (additionalProperties false) would refuse answers that are right.
 * - annotations: a read is readOnly; a write that moves money or cancels orders (requires
 *   `trade`) is destructive; the writes whose repeat changes nothing more are idempotent.
 */
import { z } from 'zod';
import { A2A_METHOD_TABLE, findMethod } from '@/lib/a2a/methods';
import type { TA2aMethod } from '@/lib/a2a/methods/types';

type TJsonObject = { [key: string]: unknown };

export type TMcpTool = {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; properties?: TJsonObject; required?: string[]; [key: string]: unknown };
  outputSchema?: { type: 'object'; properties?: TJsonObject; required?: string[]; [key: string]: unknown };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
};

/** Writes whose repeat with the same arguments changes nothing more (a second cancel finds nothing open). */
const IDEMPOTENT_WRITES = new Set(['a2a.cancelOrder', 'a2a.cancelOrders', 'moderation.blockUser', 'moderation.unblockUser', 'moderation.muteUser', 'moderation.unmuteUser']);

/**
 * A zod schema as a JSON Schema object; undefined when its root is not an object. Inputs in
 * 2020-12 without `$schema` (MCP's default dialect, as GET /api/a2a/methods gives them); outputs
 * in draft-07 saying so, the dialect of the Ajv the official client validates structured content
 * with: a tuple's 2020-12 form (`prefixItems`, `items: false`) would refuse every element there.
 */
const objectSchema = (schema: z.ZodType, side: 'input' | 'output'): TMcpTool['inputSchema'] | undefined => {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: side === 'input' ? 'draft-2020-12' : 'draft-07' }) as TJsonObject;
  if (side === 'input') delete json.$schema;
  return json.type === 'object' ? (json as TMcpTool['inputSchema']) : undefined;
};

const DRY_RUN_NOTE = '; pass dryRun: true to preview without writing';

function toolOf(m: TA2aMethod): TMcpTool {
  const inputSchema = objectSchema(m.params, 'input') ?? { type: 'object' };
  const previewable = Object.hasOwn(inputSchema.properties ?? {}, 'dryRun');
  const effect = m.requires.includes('trade') ? 'Moves money or changes your orders' : 'Changes state';
  const description = m.kind === 'read' ? m.summary : `${m.summary}. ${effect}${previewable ? DRY_RUN_NOTE : ''}.`;
  const outputSchema = objectSchema(m.result, 'output');
  return {
    name: m.name,
    description,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    annotations: {
      readOnlyHint: m.kind === 'read',
      destructiveHint: m.kind === 'write' && m.requires.includes('trade'),
      idempotentHint: m.kind === 'read' || IDEMPOTENT_WRITES.has(m.name),
      // The tools act on this service's own closed world only.
      openWorldHint: false,
    },
  };
}

let tools: TMcpTool[] | undefined;

/** Every tool, in the table's order. */
export function listTools(): TMcpTool[] {
  return (tools ??= A2A_METHOD_TABLE.map(toolOf));
}

/** The method a tool name calls: its name or an alias, with dots or with the first `_` for the dot. */
export function findTool(name: string): TA2aMethod | undefined {
  return findMethod(name) ?? (name.includes('_') ? findMethod(name.replace('_', '.')) : undefined);
}
