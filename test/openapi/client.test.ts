/**
 * The committed client types (test/openapi-client/schema.d.ts, which CI's tsc checks the sample
 * client against) are exactly what the current document generates.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, generateClientTypes } from '@/test/openapi-client/generate';

describe('the generated client types', () => {
  it('match the OpenAPI document', async () => {
    const committed = fs.readFileSync(path.resolve(import.meta.dirname, '../..', CLIENT_TYPES_FILE), 'utf8');
    const fresh = await generateClientTypes();
    // Not toBe: a diff of a 400 KB file helps no one; the fix is one command.
    expect(committed === fresh, `${CLIENT_TYPES_FILE} is out of date with the OpenAPI document: run npm run openapi:client`).toBe(true);
  });
});
