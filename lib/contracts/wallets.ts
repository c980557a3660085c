/**
 * Wallet ownership: the challenge an account asks for before it binds an address, and the proof
 * fields every binding carries (README "Proof before points": an address is bound only with an EIP-191
 * signature, by that address, of a challenge the service issued for that account).
 */
import { z } from 'zod';
import { ZIdParam, ZSuccess, ZTimestamp } from './common';
import { defineEndpoint } from './endpoint';

/** An EIP-55 checksummed address (the checksum itself is checked by the service). */
export const ZWalletAddress = z
  .string()
  .length(42, 'must be 42 characters: 0x and 40 hex digits')
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
  .describe('an EIP-55 checksummed address');

/** A 65-byte secp256k1 signature as personal_sign (EIP-191) answers it. */
export const ZWalletSignature = z
  .string()
  .regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 0x-prefixed 65-byte hex signature (personal_sign)')
  .describe("the address's EIP-191 (personal_sign) signature of the challenge message");

/**
 * The proof a binding carries beside the address: the signature and, optionally, the challenge's
 * id (without it, the newest open challenge of this account for this address).
 */
export const walletProofFields = {
  signature: ZWalletSignature,
  challengeId: ZIdParam.optional().describe('the challenge signed; default: your newest open challenge for this address'),
};

export const ZWalletChallenge = z.object({
  id: z.string(),
  address: z.string(),
  message: z.string().describe('the exact text to sign with personal_sign'),
  expiresAt: ZTimestamp,
});

export const walletsChallenge = defineEndpoint({
  id: 'wallets.challenge',
  method: 'POST',
  path: '/api/users/wallet/challenge',
  summary:
    'Ask for a challenge to prove you own a wallet: sign its message with the address (EIP-191 personal_sign) within 10 minutes, then send the signature with the binding (the waitlist wallet bonus); each challenge binds once',
  tag: 'users',
  auth: 'user',
  requires: ['account'],
  rateLimit: 'verification',
  body: z.strictObject({ address: ZWalletAddress }),
  response: z.object({ success: ZSuccess, challenge: ZWalletChallenge }),
  status: 201,
  errors: ['VALIDATION_ERROR', 'USER_NOT_FOUND'],
});

export const walletsEndpoints = [walletsChallenge] as const;
