/**
 * The developer page's copyable examples (components/a2a/agent-snippets.ts) name the server's real
 * paths on the origin they are given, read the key from the environment, and the MCP and A2A
 * examples call a method the table has. (Here rather than beside the file: vitest runs lib/, db/,
 * app/ and test/.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_SNIPPETS, KEY_ENV } from '@/components/a2a/agent-snippets';
import { findMethod } from '@/lib/a2a/methods';
import { AGENT_PATHS } from '@/lib/system/llms-txt';

const ORIGIN = 'https://play.example.test';
const code = (id: string) => {
  const s = AGENT_SNIPPETS.find((x) => x.id === id);
  if (!s) throw new Error(`no snippet ${id}`);
  return s.code(ORIGIN);
};
const root = path.resolve(import.meta.dirname, '..');
const routeExists = (urlPath: string) => fs.existsSync(path.join(root, 'app', ...urlPath.split('/').filter(Boolean), 'route.ts'));

describe('agent snippets', () => {
  it('has the five examples, each with a unique id', () => {
    expect(AGENT_SNIPPETS.map((s) => s.id)).toEqual(['curl', 'mcp-sdk', 'a2a-sdk', 'claude-desktop', 'mcp-client']);
  });

  it('curl: the bearer key on REST, a dry run, an Idempotency-Key and the heartbeat path', () => {
    const c = code('curl');
    expect(c).toContain(`curl -s ${ORIGIN}/api/users/me`);
    expect(c).toContain(`-H "Authorization: Bearer $${KEY_ENV}"`);
    expect(c).toContain(`export ${KEY_ENV}="pm_…"`);
    expect(c).toContain(`${ORIGIN}/api/markets/predictions/<marketId>/buy`);
    expect(c).toContain('"dryRun": true');
    expect(c).toContain('Idempotency-Key:');
    expect(c).toContain(`${ORIGIN}/api/users/<userId>/api-keys/<keyId>/heartbeat`);
    expect(c).toContain('{"timeoutSeconds": 60}');
  });

  it('MCP SDK: Streamable HTTP to /api/mcp with the bearer header, listTools and callTool of a real method', () => {
    const c = code('mcp-sdk');
    expect(c).toContain("from '@modelcontextprotocol/sdk/client/index.js'");
    expect(c).toContain(`new StreamableHTTPClientTransport(new URL('${ORIGIN}/api/mcp')`);
    expect(c).toContain(`Authorization: \`Bearer \${process.env.${KEY_ENV}}\``);
    expect(c).toContain('client.listTools()');
    const tool = /callTool\(\{ name: '([^']+)'/.exec(c)?.[1];
    expect(tool).toBe('a2a.getMarketPrices');
    expect(findMethod(tool!)).toBeDefined();
  });

  it('A2A SDK 1.x: ClientFactory from the origin (the card), a fetch with the bearer, a data part naming a real method', () => {
    const c = code('a2a-sdk');
    expect(c).toContain("from '@a2a-js/sdk/client'");
    expect(c).toContain(`factory.createFromUrl('${ORIGIN}')`);
    expect(c).toContain(`${ORIGIN}/.well-known/agent-card.json`);
    expect(c).toContain("headers.set('Authorization', `Bearer ${process.env.PLAYMONEY_API_KEY}`)");
    const method = /value: \{ method: '([^']+)'/.exec(c)?.[1];
    expect(findMethod(method!)).toBeDefined();
  });

  it('the MCP client configs are JSON that points at /api/mcp with a bearer key', () => {
    const desktop = JSON.parse(code('claude-desktop')) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> };
    const server = desktop.mcpServers.playmoney!;
    expect(server.args).toContain(`${ORIGIN}/api/mcp`);
    expect(server.args).toContain('Authorization:${PLAYMONEY_AUTH}');
    expect(server.env.PLAYMONEY_AUTH).toBe('Bearer pm_…');
    const http = JSON.parse(code('mcp-client')) as { mcpServers: Record<string, { url: string; headers: Record<string, string> }> };
    expect(http.mcpServers.playmoney).toEqual({ url: `${ORIGIN}/api/mcp`, headers: { Authorization: 'Bearer pm_…' } });
  });

  it('never carries a key, and every path it names outside MCP and the key routes is served today', () => {
    for (const s of AGENT_SNIPPETS) expect(s.code(ORIGIN), s.id).not.toMatch(/pm_[A-Za-z0-9]{4,}/);
    for (const p of [AGENT_PATHS.me, AGENT_PATHS.a2a, AGENT_PATHS.openApi, AGENT_PATHS.agentCard, AGENT_PATHS.agentAuth, AGENT_PATHS.sse, '/api/markets/predictions/[id]/buy', AGENT_PATHS.llmsTxt]) {
      expect(routeExists(p), p).toBe(true);
    }
  });
});
