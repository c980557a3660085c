import type { AgentCard } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { buildAgentCard } from './agent-card';
import { A2A_METHOD_TABLE } from './methods';

describe('buildAgentCard', () => {
  it("is an AgentCard of the official SDK's types (checked by the compiler) for protocol 0.3.0", () => {
    const card: AgentCard = buildAgentCard({ origin: 'https://play.example', version: '1.2.3' });
    expect(card).toMatchObject({ protocolVersion: '0.3.0', url: 'https://play.example/api/a2a', version: '1.2.3', preferredTransport: 'JSONRPC' });
    expect(card.skills.flatMap((s) => s.examples ?? []).length).toBe(A2A_METHOD_TABLE.length);
  });
});
