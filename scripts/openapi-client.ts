/**
 * Writes what is generated from the OpenAPI document and committed:
 *   - test/openapi/openapi.snapshot.json: the public document itself (reviewed as a diff);
 *   - test/openapi-client/schema.d.ts: its TypeScript types, which the sample client
 *     (test/openapi-client/client.ts) is type-checked against in CI.
 * Tests fail when either disagrees with the document. Run after changing a contract:
 * npm run openapi:client
 */
import fs from 'node:fs';
import path from 'node:path';
import { generateOpenApiSnapshot, OPENAPI_SNAPSHOT_FILE } from '@/test/openapi/snapshot';
import { CLIENT_TYPES_FILE, generateClientTypes } from '@/test/openapi-client/generate';

const root = path.resolve(import.meta.dirname, '..');
for (const [file, text] of [
  [OPENAPI_SNAPSHOT_FILE, generateOpenApiSnapshot()],
  [CLIENT_TYPES_FILE, await generateClientTypes()],
] as const) {
  fs.writeFileSync(path.join(root, file), text);
  console.log(`wrote ${file}`);
}
