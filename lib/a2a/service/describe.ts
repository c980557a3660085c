/**
 * GET /api/a2a/methods: the method table as data (names, aliases, what each does, whether it
 * writes, and its params as JSON Schema), for the developer page and for agents that read it
 * before calling. Built once per process from the table.
 */
import 'server-only';
import { z } from 'zod';
import type { a2aMethods } from '@/lib/contracts/a2a';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { A2A_METHOD_TABLE } from '../methods';

type TMethodParams = TEndpointResponse<typeof a2aMethods>['methods'][number]['params'];

const PROTOCOL_METHODS = [
  { name: 'message/send', summary: 'Run the method a data part names ({"method", "params"}) and answer a completed task holding its result' },
  { name: 'tasks/get', summary: 'A task of yours by id' },
  { name: 'tasks/cancel', summary: 'Every task is finished at once: always TaskNotCancelable (-32002) for your own' },
];

let described: ReturnType<typeof build> | undefined;

const build = () => ({
  endpoint: '/api/a2a',
  methods: A2A_METHOD_TABLE.map((m) => {
    // A method's params are an object schema (lib/a2a/methods): the shape GET /api/a2a/methods declares.
    const { $schema: _drop, ...params } = z.toJSONSchema(m.params, { io: 'input', unrepresentable: 'any' }) as { $schema?: string } & TMethodParams;
    return { name: m.name, aliases: [...(m.aliases ?? [])], summary: m.summary, group: m.group, kind: m.kind, params };
  }),
  protocolMethods: PROTOCOL_METHODS,
});

export async function describeMethods() {
  return (described ??= build());
}
