/**
 * The registrar: where an on-chain identity is minted. Two implementations share this interface:
 * the simulated registry (the default: the database is the chain, the game tick confirms) and a
 * real EVM registry reached over JSON-RPC (lib/identity/evm-registrar.ts, when CHAIN_RPC_URL,
 * IDENTITY_REGISTRY_ADDRESS and REGISTRAR_PRIVATE_KEY are set). Token ids are chosen by the
 * service (one database sequence, unique across users and agents) before the mint, so an intent
 * can answer its nftTokenId at once and a retried mint is recognised.
 */

export type THexAddress = `0x${string}`;

export type TRegistration = {
  /** Unique across every user and agent; the ERC-721 token id. */
  tokenId: number;
  userId: string;
  /** The player's wallet, when they connected one; null mints to the registrar's own address (custody). */
  owner: THexAddress | null;
};

export type TRegistrationReceipt = {
  /** The mint transaction's hash; null on the simulated registry, or when the token already existed. */
  txHash: string | null;
  /** Who holds the token now. */
  owner: string | null;
};

export type TRegistrar = {
  kind: 'simulated' | 'evm';
  /**
   * Mints `tokenId` for the registration and resolves once it is final (the receipt is mined).
   * Idempotent: a token id that already exists resolves with txHash null. Throws RegistrarError
   * with a short reason a player may read when the mint fails or reverts.
   */
  register(r: TRegistration): Promise<TRegistrationReceipt>;
};

export class RegistrarError extends Error {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = 'RegistrarError';
  }
}
