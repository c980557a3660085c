/**
 * The real EVM registrar: mints identity tokens through the IdentityRegistry contract
 * (lib/identity/chain) over JSON-RPC with viem. Does network I/O only: no database, no logs.
 *
 * The chain is whatever the node says it is (eth_chainId, asked once per registrar), never a
 * hard-coded network. A mint is idempotent per token id: an existing token resolves with txHash
 * null and its current holder, including when a racing mint of the same id lands first. Every
 * failure becomes a RegistrarError with a short reason a player may read (never a URL, key or
 * raw RPC text); the underlying viem error is kept as its cause.
 */
import 'server-only';
import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  HttpRequestError,
  http,
  InsufficientFundsError,
  isAddress,
  TimeoutError,
  WaitForTransactionReceiptTimeoutError,
} from 'viem';
import { nonceManager, privateKeyToAccount } from 'viem/accounts';
import { identityRegistryAbi, identityRegistryBytecode } from './chain/artifact';
import { RegistrarError, type TRegistrar, type TRegistration, type TRegistrationReceipt, type THexAddress } from './registrar';

/** Each JSON-RPC request; one retry covers a dropped connection without stalling a tick. */
const RPC_TIMEOUT_MS = 10_000;
const RPC_RETRY_COUNT = 1;
/** How long a mint may take to be mined before the tick gives up (a retry then finds the token). */
const RECEIPT_TIMEOUT_MS = 30_000;
/** Short enough for a local node that mines at once; a public chain just polls more often. */
const POLLING_INTERVAL_MS = 250;

export type TEvmConfig = { rpcUrl: string; registryAddress: THexAddress; privateKey: `0x${string}` };

/** Clients bound to the node's own chain id and the registrar's account. */
const connect = async ({ rpcUrl, privateKey }: { rpcUrl: string; privateKey: `0x${string}` }) => {
  const transport = http(rpcUrl, { timeout: RPC_TIMEOUT_MS, retryCount: RPC_RETRY_COUNT });
  const chainId = await createPublicClient({ transport }).getChainId();
  const chain = defineChain({
    id: chainId,
    name: `EVM chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  // The nonce manager hands out nonces locally, so mints sent together by this process do not collide.
  const account = privateKeyToAccount(privateKey, { nonceManager });
  return {
    account,
    publicClient: createPublicClient({ chain, transport, pollingInterval: POLLING_INTERVAL_MS }),
    walletClient: createWalletClient({ account, chain, transport, pollingInterval: POLLING_INTERVAL_MS }),
  };
};

type TConnection = Awaited<ReturnType<typeof connect>>;

/** Short reasons for the registry's own custom errors (IdentityRegistry.sol). */
const REVERT_REASONS: Record<string, string> = {
  NotOwner: "the registrar's account is not the identity registry's owner",
  ZeroAddress: 'an identity cannot be minted to the zero address',
  // Only left over when a racing mint of the id stays pending past the receipt timeout.
  TokenExists: 'another mint of this token id is still pending',
};

const revertOf = (err: unknown) =>
  err instanceof BaseError ? (err.walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null) : null;

/** The player-readable reason for a failed mint. */
const reasonFor = (err: unknown, registryAddress: THexAddress): string => {
  const has = (type: new (...args: never[]) => Error) => err instanceof BaseError && err.walk((e) => e instanceof type) !== null;
  const revert = revertOf(err);
  if (revert) {
    const name = revert.data?.errorName;
    const known = name ? REVERT_REASONS[name] : undefined;
    return known ?? `the identity registry refused the mint${name ? ` (${name})` : ''}`;
  }
  if (has(ContractFunctionZeroDataError)) return `the contract at ${registryAddress} is not an identity registry`;
  if (has(InsufficientFundsError)) return "the registrar's account cannot pay for gas";
  if (has(WaitForTransactionReceiptTimeoutError)) return `the mint was not confirmed within ${RECEIPT_TIMEOUT_MS / 1000} s`;
  if (has(HttpRequestError) || has(TimeoutError)) return 'the chain node did not answer';
  return 'the mint failed on chain';
};

const toRegistrarError = (err: unknown, registryAddress: THexAddress): RegistrarError =>
  err instanceof RegistrarError ? err : new RegistrarError(reasonFor(err, registryAddress), { cause: err });

/** The registrar for `cfg`; it connects on its first mint (and again after a failed connection). */
export function createEvmRegistrar(cfg: TEvmConfig): TRegistrar {
  const registry = { address: cfg.registryAddress, abi: identityRegistryAbi } as const;
  let connection: Promise<TConnection> | undefined;

  const open = async () => {
    const c = await connect(cfg);
    const code = await c.publicClient.getCode({ address: cfg.registryAddress });
    if (!code || code === '0x') throw new RegistrarError(`no identity registry at ${cfg.registryAddress}`);
    return c;
  };
  const connected = () => {
    if (!connection) {
      const attempt = open();
      connection = attempt;
      // A failed connection is not kept: the next mint tries again (the node may be back, the registry deployed).
      attempt.catch(() => {
        if (connection === attempt) connection = undefined;
      });
    }
    return connection;
  };

  const holderOf = async ({ publicClient }: TConnection, id: bigint): Promise<string | null> =>
    (await publicClient.readContract({ ...registry, functionName: 'exists', args: [id] }))
      ? publicClient.readContract({ ...registry, functionName: 'ownerOf', args: [id] })
      : null;

  /** The holder once a racing mint of `id` (sent, not yet mined) lands; null if it does not in time. */
  const awaitHolder = async (c: TConnection, id: bigint): Promise<string | null> => {
    const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
    for (;;) {
      const holder = await holderOf(c, id);
      if (holder || Date.now() > deadline) return holder;
      await new Promise((resolve) => setTimeout(resolve, POLLING_INTERVAL_MS));
    }
  };

  const mint = async (c: TConnection, to: THexAddress, id: bigint): Promise<TRegistrationReceipt> => {
    const existing = await holderOf(c, id);
    if (existing) return { txHash: null, owner: existing };
    const call = { ...registry, account: c.account, functionName: 'register', args: [to, id] } as const;
    await c.publicClient.simulateContract(call);
    // Sent with the whole ABI (not the simulation's request, which keeps only `register`), so a
    // revert found while estimating gas is decoded to the registry's error name.
    const txHash = await c.walletClient.writeContract(call);
    const receipt = await c.publicClient.waitForTransactionReceipt({ hash: txHash, timeout: RECEIPT_TIMEOUT_MS });
    if (receipt.status === 'success') return { txHash, owner: to };
    // Simulated fine but reverted when mined: a racing mint of the same id landed first.
    const racer = await holderOf(c, id);
    if (racer) return { txHash: null, owner: racer };
    throw new RegistrarError('the mint transaction reverted');
  };

  const register = async ({ tokenId, owner }: TRegistration): Promise<TRegistrationReceipt> => {
    if (owner !== null && !isAddress(owner, { strict: false })) throw new RegistrarError(`the wallet address ${owner} is not a valid EVM address`);
    const id = BigInt(tokenId);
    let c: TConnection | undefined;
    try {
      c = await connected();
      return await mint(c, getAddress(owner ?? c.account.address), id);
    } catch (err) {
      // A racing mint of this id got there first: mined (seen by the simulation), or still pending
      // (seen by the gas estimate, which nodes run on the pending block). Once it is mined, the
      // token exists, which is all this registration needs.
      if (c && revertOf(err)?.data?.errorName === 'TokenExists') {
        const holder = await awaitHolder(c, id).catch(() => null);
        if (holder) return { txHash: null, owner: holder };
      }
      throw toRegistrarError(err, cfg.registryAddress);
    }
  };

  return { kind: 'evm', register };
}

/** Deploys a new IdentityRegistry owned by `privateKey`'s account and resolves its address once mined. */
export async function deployIdentityRegistry(cfg: { rpcUrl: string; privateKey: `0x${string}` }): Promise<THexAddress> {
  const { account, publicClient, walletClient } = await connect(cfg);
  const hash = await walletClient.deployContract({ abi: identityRegistryAbi, bytecode: identityRegistryBytecode, account });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`the registry deployment ${hash} failed`);
  return getAddress(receipt.contractAddress);
}
