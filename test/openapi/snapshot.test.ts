/**
 * The committed snapshot of the public OpenAPI document (test/openapi/openapi.snapshot.json) is
 * exactly what the contracts build: a change to the document is deliberate, regenerated with
 * `npm run openapi:client` and reviewed as a diff of that file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateOpenApiSnapshot, OPENAPI_SNAPSHOT_FILE } from './snapshot';

describe('the OpenAPI document snapshot', () => {
  it('matches the document the contracts build', () => {
    const committed = fs.readFileSync(path.resolve(import.meta.dirname, '../..', OPENAPI_SNAPSHOT_FILE), 'utf8');
    const fresh = generateOpenApiSnapshot();
    const hint = `${OPENAPI_SNAPSHOT_FILE} is out of date with the OpenAPI document: run npm run openapi:client and review the diff`;
    // Structurally first, so a failure names the operations and fields that changed.
    expect(JSON.parse(committed), hint).toEqual(JSON.parse(fresh));
    expect(committed === fresh, hint).toBe(true);
  });
});
