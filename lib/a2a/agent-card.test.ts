import type { AgentCard } from '@a2a-js/sdk';
import { AgentCard as V1AgentCard, verifyAgentCardSignature } from 'a2a-sdk-v1';
import { base64url, createLocalJWKSet, decodeProtectedHeader, flattenedVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { MCP_EXTENSION_URI, buildAgentCard } from './agent-card';
import { agentCardJwks, resetCardSigningKey, signAgentCard } from './card-signing';
import { A2A_METHOD_TABLE } from './methods';
import { cardSigningPayload } from './v1/canonical';

const ORIGIN = 'https://play.example';

describe('buildAgentCard', () => {
  it("is an AgentCard of the official 0.3 SDK's types (checked by the compiler) for protocol 0.3.0", () => {
    const card: AgentCard = buildAgentCard({ origin: ORIGIN, version: '1.2.3' });
    expect(card).toMatchObject({ protocolVersion: '0.3.0', url: `${ORIGIN}/api/a2a`, version: '1.2.3', preferredTransport: 'JSONRPC' });
    expect(card.additionalInterfaces).toEqual([{ url: `${ORIGIN}/api/a2a`, transport: 'JSONRPC' }]);
    expect(card.skills.flatMap((s) => s.examples ?? []).length).toBe(A2A_METHOD_TABLE.length);
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
  });

  it('reads as a 1.0 card through the 1.x SDK: both interfaces, the bearer scheme, the MCP extension', () => {
    const v1 = V1AgentCard.fromJSON(buildAgentCard({ origin: ORIGIN, version: '1.2.3' }));
    expect(v1.supportedInterfaces).toEqual([
      { url: `${ORIGIN}/api/a2a`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: `${ORIGIN}/api/a2a`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ]);
    expect(v1.securitySchemes.bearer?.scheme).toMatchObject({ $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer', description: expect.stringContaining('pm_') } });
    expect(v1.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
    expect(v1.capabilities).toMatchObject({ streaming: true, pushNotifications: true, extensions: [{ uri: MCP_EXTENSION_URI, params: { url: `${ORIGIN}/api/mcp` } }] });
    expect(v1.skills.length).toBeGreaterThan(0);
  });
});

describe('the signed card', () => {
  it('carries one JWS (EdDSA, kid, typ JOSE, jku at the JWKS) that verifies with the detached canonical payload', async () => {
    const card = await signAgentCard(buildAgentCard({ origin: ORIGIN, version: '1.2.3' }), { origin: ORIGIN });
    expect(card.signatures).toHaveLength(1);
    const sig = card.signatures[0]!;
    const header = decodeProtectedHeader(sig);
    const jwks = await agentCardJwks();
    expect(header).toEqual({ alg: 'EdDSA', kid: jwks.keys[0]!.kid, typ: 'JOSE', jku: `${ORIGIN}/.well-known/jwks.json` });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const payload = base64url.encode(new TextEncoder().encode(cardSigningPayload(card)));
    await expect(flattenedVerify({ ...sig, payload }, createLocalJWKSet(jwks))).resolves.toBeTruthy();
    // Any change to what it covers breaks it.
    const tampered = base64url.encode(new TextEncoder().encode(cardSigningPayload({ ...card, name: 'Evil' })));
    await expect(flattenedVerify({ ...sig, payload: tampered }, createLocalJWKSet(jwks))).rejects.toThrow();
    // The official 1.x SDK's verifier agrees (it canonicalizes the card itself).
    const jwk = jwks.keys[0]!;
    await expect(verifyAgentCardSignature(async (kid) => (kid === jwk.kid ? jwk : Promise.reject(new Error('kid'))))(card as never)).resolves.toBeUndefined();
  });

  it('is signed by the same development key every time (derived from a fixed seed, so every instance agrees)', async () => {
    const a = await signAgentCard({ name: 'x' }, { origin: ORIGIN });
    const before = await agentCardJwks();
    resetCardSigningKey();
    const b = await signAgentCard({ name: 'x' }, { origin: ORIGIN });
    expect(await agentCardJwks()).toEqual(before);
    // Ed25519 is deterministic: the same key signs the same bytes the same way.
    expect(a.signatures[0]!.signature).toBe(b.signatures[0]!.signature);
  });
});
