import { canonicalizeAgentCard, type AgentCard } from 'a2a-sdk-v1';
import { describe, expect, it } from 'vitest';
import { buildAgentCard } from '../agent-card';
import { canonicalJson, cardSigningPayload, withoutEmpty } from './canonical';

describe('the canonical agent card (what its signature covers)', () => {
  it('is RFC 8785: sorted keys, no whitespace, ECMAScript numbers and strings', () => {
    expect(canonicalJson({ b: [1, 2.5, 'x'], a: { d: true, c: null }, é: '\u2028' })).toBe('{"a":{"c":null,"d":true},"b":[1,2.5,"x"],"é":"\u2028"}');
    expect(canonicalJson({ '\u20ac': 1, '\r': 2, '1': 3 })).toBe('{"\\r":2,"1":3,"€":1}');
    expect(withoutEmpty({ a: '', b: [], c: { d: [] }, e: false, f: 0 })).toEqual({ e: false, f: 0 });
  });

  it('is the bytes the official 1.x SDK signs and verifies: the 1.0 fields only, signatures left out', () => {
    const card = buildAgentCard({ origin: 'https://play.example', version: '1.2.3' });
    const ours = cardSigningPayload({ ...card, signatures: [{ protected: 'p', signature: 's' }] });
    // The SDK reads the card's JSON itself (AgentCard.fromJSON inside).
    expect(ours).toBe(canonicalizeAgentCard(card as unknown as AgentCard));
    expect(ours).not.toContain('preferredTransport');
    expect(JSON.parse(ours)).toMatchObject({ name: 'Playmoney', supportedInterfaces: [{ protocolVersion: '1.0' }, { protocolVersion: '0.3' }] });
  });
});
