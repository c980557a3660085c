/**
 * Wallet challenges, the pure part: the EIP-55 check of an address, how long a challenge lives and
 * the text a wallet signs. The text names the service, the account, the address, a random nonce
 * and the expiry, so a signature proves one account's claim to one address, once and briefly; it
 * asks for no transaction. No I/O (the nonce is passed in).
 */
import { getAddress } from 'viem';

/** A challenge binds within this time of being issued. */
export const CHALLENGE_TTL_MS = 10 * 60 * 1000;

/** The name the signed text gives the service. */
export const SERVICE_NAME = 'Playmoney';

/** Whether an address carries its EIP-55 checksum (mixed case that hashes right; all-lower or all-upper carry none). */
export function isChecksummedAddress(address: string) {
  try {
    return getAddress(address) === address;
  } catch {
    return false;
  }
}

/** The text the address signs (personal_sign, EIP-191), stored with the challenge and verified as stored. */
export function buildChallengeMessage(c: { userId: string; address: string; nonce: string; issuedAt: Date; expiresAt: Date }) {
  return [
    `${SERVICE_NAME} asks you to prove that you own this wallet.`,
    '',
    `Account: ${c.userId}`,
    `Wallet: ${c.address}`,
    `Nonce: ${c.nonce}`,
    `Issued at: ${c.issuedAt.toISOString()}`,
    `Expires at: ${c.expiresAt.toISOString()}`,
    '',
    'Signing this text sends no transaction and costs nothing.',
  ].join('\n');
}
