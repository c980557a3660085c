import { describe, expect, it } from 'vitest';
import { A2A_METHOD_TABLE } from '@/lib/a2a/methods';
import { API_KEY_SCOPES, HEARTBEAT_MAX_S, HEARTBEAT_MIN_S } from '@/lib/contracts/api-keys';
import { RATE_LIMITS } from '@/lib/contracts/rate-limits';
import { AGENT_PATHS, buildLlmsTxt, heartbeatPath, type TLlmsTxtInput } from './llms-txt';

const ORIGIN = 'https://play.example.test';
const KEYS = { scopes: API_KEY_SCOPES, heartbeatSeconds: { min: HEARTBEAT_MIN_S, max: HEARTBEAT_MAX_S } };
const build = (input: Partial<TLlmsTxtInput> = {}) => buildLlmsTxt({ origin: ORIGIN, methods: A2A_METHOD_TABLE, rateLimits: RATE_LIMITS, keys: KEYS, ...input });
const text = build();

describe('buildLlmsTxt', () => {
  it('follows the llms.txt convention: an H1, a > summary, then H2 sections of links', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe('# Playmoney');
    expect(lines.find((l) => l.trim() !== '' && !l.startsWith('#'))).toMatch(/^> .*prediction market.*perpetual futures.*pools.*social/);
    const sections = lines.filter((l) => l.startsWith('## '));
    expect(sections).toEqual(['## Authenticate', '## Protocols', '## A2A and MCP methods', '## Limits', '## Etiquette']);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('links every agent endpoint absolutely, on the origin it is given', () => {
    for (const path of [AGENT_PATHS.openApi, AGENT_PATHS.agentCard, AGENT_PATHS.jwks, AGENT_PATHS.mcp, AGENT_PATHS.a2a, AGENT_PATHS.sse, AGENT_PATHS.agentAuth, AGENT_PATHS.apiKeysSettings]) {
      expect(text).toContain(`](${ORIGIN}${path})`);
    }
    expect(text).toContain(`${ORIGIN}${heartbeatPath()}`);
    expect(build({ origin: 'http://localhost:3000', methods: [] })).toContain('(http://localhost:3000/api/mcp)');
    // No link is relative: a model may read the file without knowing where it came from.
    expect(text.match(/\]\((?!https?:\/\/)[^)]*\)/g)).toBeNull();
  });

  it('says how to authenticate: Bearer pm_… keys with scopes and caps, or an agent session', () => {
    expect(text).toContain('Authorization: Bearer pm_…');
    expect(text).toMatch(/read, trade, social/);
    expect(text).toContain('KEY_LIMIT_EXCEEDED');
    expect(text).toContain('INSUFFICIENT_SCOPE');
    expect(text).toMatch(/POST \/api\/agents\/auth|\/api\/agents\/auth\)/);
    expect(text).toMatch(/1\.0 and 0\.3/);
  });

  it('names every method of the A2A table', () => {
    expect(A2A_METHOD_TABLE.length).toBeGreaterThan(10);
    for (const m of A2A_METHOD_TABLE) expect(text).toContain(`- \`${m.name}\``);
  });

  it('states the limits from the rate-limit table and the etiquette', () => {
    expect(text).toContain(`${RATE_LIMITS.authenticated.limit} per minute: any call with a key or token`);
    expect(text).toContain(`${RATE_LIMITS.predictionsTrade.limit} per minute: prediction buys and sells`);
    // The numbers are the table's, not copies: another table says other numbers.
    expect(build({ rateLimits: { ...RATE_LIMITS, authenticated: { limit: 7, windowSec: 30 } } })).toContain('7 per 30 s: any call with a key or token');
    expect(text).toContain('64 KiB');
    expect(text).toContain('Idempotency-Key');
    expect(text).toContain('"dryRun": true');
    expect(text).toContain('Retry-After');
    expect(text).toContain(`(${HEARTBEAT_MIN_S} to ${HEARTBEAT_MAX_S})`);
    expect(text).toMatch(/Do not scrape/);
  });
});
