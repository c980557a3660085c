/**
 * The browser's injected wallet (EIP-1193 `window.ethereum`, as MetaMask and most extensions
 * provide): whether there is one, the account it lets us use (`eth_requestAccounts`, checksummed
 * with viem) and a `personal_sign` (EIP-191) of a text by that account. Errors a wallet reports
 * (the player declined, a request already open) become WalletError with a code the UI switches on.
 * I/O: the provider only; nothing here talks to our server.
 */
import { getAddress, stringToHex } from 'viem';

type TEip1193Provider = { request(args: { method: string; params?: unknown[] }): Promise<unknown> };

export type TWalletErrorCode = 'NO_WALLET' | 'REJECTED' | 'PENDING' | 'NO_ACCOUNT' | 'WALLET_ERROR';

export class WalletError extends Error {
  readonly code: TWalletErrorCode;

  constructor(code: TWalletErrorCode, message: string) {
    super(message);
    this.name = 'WalletError';
    this.code = code;
  }
}

export function isWalletError(e: unknown): e is WalletError {
  return e instanceof WalletError;
}

/** The injected provider, or undefined (no extension, or on the server). */
export function getInjectedProvider(): TEip1193Provider | undefined {
  if (typeof window === 'undefined') return undefined;
  const candidate = (window as unknown as { ethereum?: unknown }).ethereum;
  return candidate && typeof (candidate as TEip1193Provider).request === 'function' ? (candidate as TEip1193Provider) : undefined;
}

/** EIP-1193 error codes: 4001 the user rejected, -32002 a request of this kind is already open. */
const toWalletError = (e: unknown): WalletError => {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 4001) return new WalletError('REJECTED', 'You declined the request in your wallet.');
  if (code === -32002) return new WalletError('PENDING', 'Your wallet already has a request open: finish it there first.');
  const message = (e as { message?: unknown } | null)?.message;
  return new WalletError('WALLET_ERROR', typeof message === 'string' && message ? `Your wallet reported: ${message}` : 'Your wallet could not complete the request.');
};

const ask = async (provider: TEip1193Provider, method: string, params?: unknown[]) => {
  try {
    return await provider.request({ method, params });
  } catch (e) {
    throw toWalletError(e);
  }
};

const requireProvider = () => {
  const provider = getInjectedProvider();
  if (!provider) throw new WalletError('NO_WALLET', 'No wallet extension was found in this browser.');
  return provider;
};

/** Asks the wallet for an account; answers its EIP-55 checksummed address. */
export async function requestWalletAddress(): Promise<`0x${string}`> {
  const accounts = await ask(requireProvider(), 'eth_requestAccounts');
  const first = Array.isArray(accounts) ? accounts[0] : undefined;
  if (typeof first !== 'string') throw new WalletError('NO_ACCOUNT', 'Your wallet shared no account. Unlock it and try again.');
  return getAddress(first);
}

/** personal_sign (EIP-191) of `message` by `address`; answers the signature. */
export async function signWithWallet(address: string, message: string): Promise<string> {
  const signature = await ask(requireProvider(), 'personal_sign', [stringToHex(message), address]);
  if (typeof signature !== 'string') throw new WalletError('WALLET_ERROR', 'Your wallet answered without a signature.');
  return signature;
}
