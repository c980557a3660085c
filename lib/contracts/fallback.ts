/**
 * The wrapper's own answers for requests no operation serves: an unknown path under /api (404),
 * a known path asked with a method it does not serve (405, with Allow), and the CORS preflight
 * (OPTIONS). Hidden: they are not operations of the API, so not in the OpenAPI document; they go
 * through route() so that they speak the same JSON envelope and carry the same headers.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const apiNotFound = defineEndpoint({
  id: 'fallback.notFound',
  method: 'GET',
  path: '/api/{path}',
  summary: 'No such path under /api',
  tag: 'system',
  auth: 'public',
  // Not an operation: answers what no operation serves, whoever asks.
  requires: [],
  hidden: true,
  readsBody: false,
  response: z.never(),
  errors: ['NOT_FOUND'],
});

export const apiMethodNotAllowed = defineEndpoint({
  id: 'fallback.methodNotAllowed',
  method: 'GET',
  path: '/api/{path}',
  summary: 'The path exists but does not serve this method',
  tag: 'system',
  auth: 'public',
  requires: [],
  hidden: true,
  readsBody: false,
  response: z.never(),
  errors: ['METHOD_NOT_ALLOWED'],
});

export const apiPreflight = defineEndpoint({
  id: 'fallback.preflight',
  method: 'GET',
  path: '/api/{path}',
  summary: 'CORS preflight: which methods and headers a cross-origin client may use here',
  tag: 'system',
  auth: 'public',
  requires: [],
  rateLimit: 'preflight',
  hidden: true,
  readsBody: false,
  response: z.never(),
});
