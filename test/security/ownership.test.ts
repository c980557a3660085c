/**
 * Proof of ownership (issue 29, items 4 and 12), against a production server on each database:
 *  - a wallet address is bound (the waitlist wallet bonus, which sets `walletAddress`) only with
 *    an EIP-191 signature, by that address, of a challenge the service issued to the same account
 *    (POST /api/users/wallet/challenge). Without a signature, with another key's, with the
 *    owner's signature of some other text, or with a challenge issued to another account, the
 *    binding is refused, no points are paid and the owner can still bind their address; a valid
 *    proof (viem's privateKeyToAccount signs it, as a wallet would) binds it, once;
 *  - the email bonus reserves nothing until the code mailed to the address comes back: asking for
 *    someone else's address does not lock them out, and a guessed code is refused.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectOk, expectRefused, me, newPlayer, targets, unique, type TPlayer, type TTarget } from './harness';

const pointsOf = async (t: TTarget, p: TPlayer) => expectOk(await call(t, `/api/users/${p.id}/points?limit=1`, { token: p.token })).points as number;

const challengeFor = async (t: TTarget, p: TPlayer, address: string) =>
  expectOk(await call(t, '/api/users/wallet/challenge', { token: p.token, body: { address } }), 201).challenge as {
    id: string;
    message: string;
    address: string;
  };

const bind = (t: TTarget, p: TPlayer, body: Record<string, unknown>) => call(t, '/api/waitlist/bonus/wallet', { token: p.token, body });

describe.each(targets())('proof of ownership ($name)', (t) => {
  let owner: TPlayer;
  let attacker: TPlayer;
  const wallet = privateKeyToAccount(generatePrivateKey());
  const otherKey = privateKeyToAccount(generatePrivateKey());

  beforeAll(async () => {
    owner = await newPlayer(t, 'wallet-owner');
    attacker = await newPlayer(t, 'wallet-attacker');
  });

  it('refuses to bind a wallet without a valid signature of a challenge issued to the same account; a valid one binds it once', async () => {
    const address = wallet.address;
    const pointsBefore = await pointsOf(t, attacker);

    // No proof at all (the old request).
    expectRefused(await bind(t, attacker, { walletAddress: address }), 400);
    // A challenge of the attacker's own, signed by a key that is not the address's.
    const mine = await challengeFor(t, attacker, address);
    const forged = await otherKey.signMessage({ message: mine.message });
    expectRefused(await bind(t, attacker, { walletAddress: address, signature: forged, challengeId: mine.id }), 400, 'INVALID_SIGNATURE');
    // The owner's signature of some other text (phished, or from another site).
    const otherText = await wallet.signMessage({ message: `Sign in to a game\nNonce: ${unique('n')}` });
    expectRefused(await bind(t, attacker, { walletAddress: address, signature: otherText, challengeId: mine.id }), 400, 'INVALID_SIGNATURE');
    // The owner's valid proof for the owner's own account, replayed by the attacker.
    const ownersChallenge = await challengeFor(t, owner, address);
    const ownersProof = await wallet.signMessage({ message: ownersChallenge.message });
    const replayed = await bind(t, attacker, { walletAddress: address, signature: ownersProof, challengeId: ownersChallenge.id });
    expect(replayed.status, JSON.stringify(replayed.body)).toBeGreaterThanOrEqual(400);
    expect(replayed.status).toBeLessThan(500);
    expect(replayed.body.success).toBe(false);

    expect((await me(t, attacker.token)).walletAddress).toBeNull();
    expect(await pointsOf(t, attacker)).toBe(pointsBefore);

    // The owner is not locked out: their proof binds the address to them, and pays once.
    const ownerPoints = await pointsOf(t, owner);
    const bound = expectOk(await bind(t, owner, { walletAddress: address, signature: ownersProof, challengeId: ownersChallenge.id }));
    expect(bound.walletAddress).toBe(address);
    expect((await me(t, owner.token)).walletAddress).toBe(address);
    expect(await pointsOf(t, owner)).toBe(ownerPoints + bound.bonusAwarded);
    // The same proof again binds nothing more.
    const again = await bind(t, owner, { walletAddress: address, signature: ownersProof, challengeId: ownersChallenge.id });
    expect(again.status, JSON.stringify(again.body)).toBeGreaterThanOrEqual(400);
    expect(await pointsOf(t, owner)).toBe(ownerPoints + bound.bonusAwarded);
  });

  it("reserves no email address until the mailed code comes back: asking for someone else's does not lock them out", async () => {
    const email = `${unique('owner')}@example.com`;
    const victim = await newPlayer(t, 'email-owner');
    const pointsBefore = await pointsOf(t, attacker);

    // A code is mailed (nothing reserved, nothing paid), or, on a server without a mail transport
    // (production's default), the request is refused as not configured.
    const asked = await call(t, '/api/waitlist/bonus/email', { token: attacker.token, body: { email } });
    if (asked.status < 300) {
      expect(asked.body.verificationSent).toBe(true);
      expect(asked.body).not.toHaveProperty('bonusAwarded');
    } else {
      expectRefused(asked, 503, 'EMAIL_NOT_CONFIGURED');
    }
    // A guessed code proves nothing.
    const guessed = await call(t, '/api/waitlist/bonus/email/verify', { token: attacker.token, body: { token: '000000' } });
    expect(guessed.status, JSON.stringify(guessed.body)).toBeGreaterThanOrEqual(400);
    expect(guessed.status).toBeLessThan(500);
    expect(await pointsOf(t, attacker)).toBe(pointsBefore);

    // The owner asks for their own address as if nobody had: not EMAIL_TAKEN.
    const own = await call(t, '/api/waitlist/bonus/email', { token: victim.token, body: { email } });
    expect(own.status, JSON.stringify(own.body)).toBe(asked.status);
    expect(own.body?.error?.code).not.toBe('EMAIL_TAKEN');
  });
});
