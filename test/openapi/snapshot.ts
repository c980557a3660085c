/**
 * The public OpenAPI document as committed text (test/openapi/openapi.snapshot.json), so that any
 * change to what the API promises shows as a diff in review. Deterministic: the document is built
 * in memory with a fixed version, and JSON.stringify keeps the order the builder writes.
 */
import { buildOpenApiDocument } from '@/lib/openapi/document';

export const OPENAPI_SNAPSHOT_FILE = 'test/openapi/openapi.snapshot.json';

/** The text of openapi.snapshot.json for the current document. */
export const generateOpenApiSnapshot = (): string =>
  // The version is the release's, not the interface's; a fixed one keeps the text stable.
  `${JSON.stringify(buildOpenApiDocument('0.0.0'), null, 2)}\n`;
