/**
 * Writes test/openapi-client/schema.d.ts: the TypeScript types of the OpenAPI document that the
 * sample client (test/openapi-client/client.ts) is type-checked against in CI.
 * Run after changing a contract: npm run openapi:client
 */
import fs from 'node:fs';
import path from 'node:path';
import { CLIENT_TYPES_FILE, generateClientTypes } from '@/test/openapi-client/generate';

const file = path.resolve(import.meta.dirname, '..', CLIENT_TYPES_FILE);
fs.writeFileSync(file, await generateClientTypes());
console.log(`wrote ${CLIENT_TYPES_FILE}`);
