/**
 * Figure "MCP tool call" (BENCH_ONLY=mcp): calls per second at 32 clients through the MCP endpoint
 * (a tools/call of a read) beside the same REST read, measured in the same run at the same
 * concurrency, as the a2a figure measures A2A (bench/a2a.ts, whose runner this reuses).
 *
 * Fixture: 20 prediction markets created through POST /api/admin/markets, and 2,000 callers with
 * a token: the run's 400 bench users and 1,600 more (`bench-mcp|<i>`), each provisioned once
 * before the run. Both sides carry a bearer token, so each call counts against its caller: the
 * tool call against the caller's general rule ('authenticated', 1,000 a minute: the method has no
 * rule of its own), the REST read against 'predictionsList' (100 a minute), hence 2,000 callers.
 *
 * The figure, for BENCH_SECONDS each, autocannon with 32 keep-alive connections:
 * - MCP: POST /api/mcp, `{"jsonrpc":"2.0","id":n,"method":"tools/call","params":{"name":
 *   "a2a.getMarketPrices","arguments":{"marketId":…}}}`, stateless as the server is (no initialize
 *   first: a stateless server needs none, and each request builds its own server anyway); an
 *   answer counts when it is a 200 whose `result.structuredContent.marketId` is the market asked
 *   for and `result.isError` is not set.
 * - Reference: GET /api/markets/predictions/{id}, the same random market and caller distribution;
 *   an answer counts when it is a 200 whose JSON has `market.id`.
 * Printed: calls/s, p50 and p99 of both, and the ratio mcp/rest. Goal: 0.8 or better.
 */
import type { TFigure } from './figures';
import { EXTRA_CALLERS, MARKETS, parse, readFixture, runSide } from './a2a';

const GOAL = 0.8;

const mcpBody = (n: number, marketId: string) =>
  JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'a2a.getMarketPrices', arguments: { marketId } } });
const mcpCheck = (status: number, body: string, marketId: string): string | null => {
  if (status !== 200) return `http ${status}`;
  const json = parse(body);
  if (!json) return 'not JSON';
  const error = json.error as { code?: number } | undefined;
  if (error) return `rpc ${error.code}`;
  const result = json.result as { isError?: boolean; content?: { text?: string }[]; structuredContent?: { marketId?: string } } | undefined;
  if (result?.isError) return `tool error ${(parse(result.content?.[0]?.text ?? '')?.error as { code?: string } | undefined)?.code ?? '?'}`;
  if (!result?.structuredContent?.marketId) return 'no structuredContent.marketId';
  if (result.structuredContent.marketId !== marketId) return 'wrong marketId';
  return null;
};
const restCheck = (status: number, body: string, marketId: string): string | null => {
  if (status !== 200) return `http ${status}`;
  const market = parse(body)?.market as { id?: string } | undefined;
  if (!market?.id) return 'no market.id';
  return market.id === marketId ? null : 'wrong market.id';
};

const describe = (failures: Map<string, number>) => [...failures].map(([k, v]) => `${k}: ${v}`).join(', ');

export const benchMcpToolCall = async (ctx: { base: string; tokens: string[]; figures: TFigure[]; seconds: number; token: (sub: string) => Promise<string> }) => {
  const { base, figures, seconds } = ctx;
  console.log(`\nMCP tools/call a2a.getMarketPrices beside REST GET /api/markets/predictions/{id}: creating ${MARKETS} markets and ${EXTRA_CALLERS} more callers…`);
  const { marketIds, tokens } = await readFixture(ctx, 'MCP', 'bench-mcp');

  // A sample of each side (also loads both routes before the timed runs).
  for (let k = 0; k < 20; k++) {
    const marketId = marketIds[k % MARKETS]!;
    const token = tokens[k]!;
    const m = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: mcpBody(k, marketId),
    });
    const mFail = mcpCheck(m.status, await m.text(), marketId);
    const r = await fetch(`${base}/api/markets/predictions/${marketId}`, { headers: { authorization: `Bearer ${token}` } });
    const rFail = restCheck(r.status, await r.text(), marketId);
    if (mFail || rFail) console.log(`  note: sample ${k}: mcp ${mFail ?? 'ok'}, rest ${rFail ?? 'ok'}`);
  }

  console.log(`POST /api/mcp tools/call a2a.getMarketPrices: 32 connections, ${MARKETS} markets, ${tokens.length} callers, ${seconds}s…`);
  const mcp = await runSide(base, seconds, (n, marketId) => ({ method: 'POST', path: '/api/mcp', body: mcpBody(n, marketId) }), mcpCheck, marketIds, tokens);
  if (mcp.failures.size > 0) console.log(`  note: ${mcp.total - mcp.ok} answers did not count: ${describe(mcp.failures)}`);

  console.log(`  reference: GET /api/markets/predictions/{id}, same markets, callers and concurrency, ${seconds}s…`);
  const rest = await runSide(base, seconds, (_n, marketId) => ({ method: 'GET', path: `/api/markets/predictions/${marketId}` }), restCheck, marketIds, tokens);
  if (rest.failures.size > 0) console.log(`  note: ${rest.total - rest.ok} reference answers did not count: ${describe(rest.failures)}`);

  console.log(
    `  mcp ${mcp.rps.toFixed(1)} calls/s (p50 ${mcp.p50.toFixed(1)} ms, p99 ${mcp.p99.toFixed(1)} ms); ` +
      `rest ${rest.rps.toFixed(1)} calls/s (p50 ${rest.p50.toFixed(1)} ms, p99 ${rest.p99.toFixed(1)} ms); ratio ${(mcp.rps / rest.rps).toFixed(3)} (goal ${GOAL})`,
  );
  const referenceIs = 'REST GET of the market';
  figures.push({ name: 'mcp tools/call calls/s', project: mcp.rps, reference: rest.rps, unit: 'call/s', higherIsBetter: true, referenceIs });
  figures.push({ name: 'mcp tools/call p50', project: mcp.p50, reference: rest.p50, unit: 'ms', higherIsBetter: false, referenceIs });
  figures.push({ name: 'mcp tools/call p99', project: mcp.p99, reference: rest.p99, unit: 'ms', higherIsBetter: false, referenceIs });
};
