import { privateKeyToAccount } from 'viem/accounts';
import { verifyMessage } from 'viem';
import { describe, expect, it } from 'vitest';
import { buildChallengeMessage, isChecksummedAddress } from './challenge';

describe('wallet challenges', () => {
  it('only an EIP-55 checksummed address passes', () => {
    const a = '0x52908400098527886E0F7030069857D2E4169EE7';
    expect(isChecksummedAddress(a)).toBe(true);
    expect(isChecksummedAddress(a.toLowerCase())).toBe(false);
    expect(isChecksummedAddress('0x52908400098527886e0F7030069857D2E4169EE7')).toBe(false);
    expect(isChecksummedAddress('0x1234')).toBe(false);
  });

  it('the text names the service, account, address, nonce and expiry, and a signature of it verifies for its signer only', async () => {
    const signer = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
    const other = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
    const message = buildChallengeMessage({
      userId: 'user-1',
      address: signer.address,
      nonce: 'abc123',
      issuedAt: new Date('2030-01-01T00:00:00Z'),
      expiresAt: new Date('2030-01-01T00:10:00Z'),
    });
    for (const part of ['Playmoney', 'Account: user-1', `Wallet: ${signer.address}`, 'Nonce: abc123', 'Expires at: 2030-01-01T00:10:00.000Z']) expect(message).toContain(part);
    const signature = await signer.signMessage({ message });
    expect(await verifyMessage({ address: signer.address, message, signature })).toBe(true);
    expect(await verifyMessage({ address: other.address, message, signature })).toBe(false);
    expect(await verifyMessage({ address: signer.address, message: `${message} `, signature })).toBe(false);
  });
});
