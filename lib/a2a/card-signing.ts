/**
 * The agent card's signature (A2A 1.0, "Agent Card signing"): a JWS with a detached payload over
 * the card's canonical form (v1/canonical.ts), `signatures: [{protected, signature}]`, its
 * protected header naming `alg`, `kid`, `typ: "JOSE"` and `jku` (GET /.well-known/jwks.json, which
 * serves the public half). The key is AGENT_CARD_SIGNING_KEY (a private Ed25519 or P-256 JWK);
 * unset outside production, a development key derived from a fixed seed (HKDF → Ed25519), so every
 * instance and every test agrees; unset in production, a key of this process's own (one warning):
 * the card still verifies against the JWKS the same process serves, but not across instances.
 */
import 'server-only';
import { createPrivateKey, hkdfSync } from 'node:crypto';
import { FlattenedSign, calculateJwkThumbprint, importJWK, type JWK } from 'jose';
import { env, type TPrivateJwk } from '@/lib/env';
import { cardSigningPayload } from './v1/canonical';

/** The development key's seed: public on purpose (nothing outside development trusts it). */
const DEV_SEED = 'playmoney-development-agent-card-signing-key';

/** A public key as the JWKS serves it. */
export type TPublicJwk = { kty: string; crv: string; x: string; y?: string; kid: string; alg: string; use: 'sig' };

type TSigningKey = { privateJwk: JWK; publicJwk: TPublicJwk; alg: 'EdDSA' | 'ES256'; kid: string };

/** An Ed25519 private key from 32 bytes of seed (PKCS#8: a fixed prefix, then the seed). */
const ed25519FromSeed = (seed: Buffer): JWK =>
  createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' }).export({ format: 'jwk' }) as JWK;

const publicOf = (jwk: JWK) => {
  const { kty, crv, x, y } = jwk as { kty: string; crv: string; x: string; y?: string };
  return { kty, crv, x, ...(y ? { y } : {}) };
};

async function loadKey(): Promise<TSigningKey> {
  const configured: TPrivateJwk | undefined = env().agentCardSigningKey;
  let privateJwk: JWK;
  if (configured) privateJwk = { ...configured };
  else if (!env().isProduction) privateJwk = ed25519FromSeed(Buffer.from(hkdfSync('sha256', DEV_SEED, 'playmoney', 'agent-card-signing', 32)));
  else {
    console.warn('[a2a] AGENT_CARD_SIGNING_KEY is not set: the agent card is signed with a key of this process only (set it so every instance agrees)');
    privateJwk = ed25519FromSeed(Buffer.from(crypto.getRandomValues(new Uint8Array(32))));
  }
  const publicJwk = publicOf(privateJwk);
  const kid = (configured?.kid as string | undefined) ?? (await calculateJwkThumbprint(publicJwk));
  const alg = privateJwk.kty === 'EC' ? 'ES256' : 'EdDSA';
  return { privateJwk, publicJwk: { ...publicJwk, kid, alg, use: 'sig' as const }, alg, kid };
}

let key: Promise<TSigningKey> | undefined;
const signingKey = () => (key ??= loadKey());

/** Forgets the key (tests that change AGENT_CARD_SIGNING_KEY). */
export function resetCardSigningKey() {
  key = undefined;
}

/** GET /.well-known/jwks.json: the public keys the card's signatures verify with. */
export async function agentCardJwks(): Promise<{ keys: TPublicJwk[] }> {
  return { keys: [(await signingKey()).publicJwk] };
}

/** The card with its `signatures` (any it had replaced): one JWS, payload detached. */
export async function signAgentCard<C extends Record<string, unknown>>(card: C, opts: { origin: string }): Promise<C & { signatures: { protected: string; signature: string }[] }> {
  const { privateJwk, alg, kid } = await signingKey();
  const payload = new TextEncoder().encode(cardSigningPayload(card));
  const jws = await new FlattenedSign(payload)
    .setProtectedHeader({ alg, kid, typ: 'JOSE', jku: `${opts.origin}/.well-known/jwks.json` })
    .sign(await importJWK(privateJwk, alg));
  return { ...card, signatures: [{ protected: jws.protected!, signature: jws.signature }] };
}
