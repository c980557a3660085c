/**
 * Builds the OpenAPI 3.1 document from the endpoint registry, with zod's own JSON Schema output
 * (OpenAPI 3.1 schemas are JSON Schema 2020-12). Pure: no I/O.
 */
import { z } from 'zod';
import { endpoints } from '@/lib/contracts';
import { ZErrorBody } from '@/lib/contracts/common';
import type { TEndpoint } from '@/lib/contracts/endpoint';
import { ERROR_STATUS } from '@/lib/http/errors';
import { RATE_LIMITS } from '@/lib/http/rate-limits';

type TJson = Record<string, unknown>;

const schemaOf = (s: z.ZodType, io: 'input' | 'output'): TJson => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as TJson;
  return rest;
};

const parametersOf = (e: TEndpoint) => {
  const out: TJson[] = [];
  for (const [where, schema] of [
    ['path', e.params],
    ['query', e.query],
  ] as const) {
    if (!schema) continue;
    const js = schemaOf(schema, 'input') as { properties?: Record<string, TJson>; required?: string[] };
    for (const [name, prop] of Object.entries(js.properties ?? {})) {
      out.push({ name, in: where, required: where === 'path' || (js.required ?? []).includes(name), schema: prop });
    }
  }
  return out;
};

const operationOf = (e: TEndpoint) => {
  const rule = RATE_LIMITS[e.rateLimit ?? (e.auth === 'public' ? 'public' : 'authenticated')];
  const errorCodes = new Set<string>(e.errors ?? []);
  if (e.params || e.query) errorCodes.add('INVALID_PARAMETER');
  if (e.body) errorCodes.add('VALIDATION_ERROR');
  if (e.auth !== 'public') errorCodes.add('UNAUTHORIZED');
  if (e.auth === 'admin') errorCodes.add('FORBIDDEN');
  errorCodes.add('RATE_LIMIT_EXCEEDED');
  const byStatus = new Map<number, string[]>();
  for (const code of errorCodes) {
    const status = ERROR_STATUS[code as keyof typeof ERROR_STATUS] ?? 500;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: TJson = {
    [String(e.status ?? 200)]: {
      description: 'Success',
      content: { [e.responseType ?? 'application/json']: { schema: schemaOf(e.response, 'output') } },
    },
  };
  for (const [status, codes] of byStatus) {
    responses[String(status)] = {
      description: codes.join(', '),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  const op: TJson = {
    operationId: e.id,
    summary: e.summary,
    tags: [e.tag],
    parameters: parametersOf(e),
    responses,
    'x-rate-limit': { limit: rule.limit, windowSeconds: rule.windowSec },
  };
  if (e.auth !== 'public') op.security = e.auth === 'cron' ? [{ cronSecret: [] }] : [{ bearer: [] }, { session: [] }];
  if (e.body) {
    op.requestBody = {
      required: true,
      content: {
        [e.multipart ? 'multipart/form-data' : 'application/json']: { schema: schemaOf(e.body, 'input') },
      },
    };
  }
  return op;
};

export const buildOpenApiDocument = (version: string) => {
  const paths: Record<string, Record<string, TJson>> = {};
  for (const e of endpoints) {
    (paths[e.path] ??= {})[e.method.toLowerCase()] = operationOf(e);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Play-money social trading and prediction markets',
      version,
      description:
        'Every route of the service. Errors are {success:false, error:{code, message, details?}}; every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: { Error: schemaOf(ZErrorBody, 'output') },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        session: { type: 'apiKey', in: 'cookie', name: 'pm_session' },
        cronSecret: { type: 'http', scheme: 'bearer', description: 'CRON_SECRET' },
      },
    },
  };
};
