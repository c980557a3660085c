/**
 * The registrar this process uses: the real EVM registry when CHAIN_RPC_URL and its two
 * companions are set, otherwise the simulated one. The EVM client (viem) is loaded only then.
 */
import 'server-only';
import { env } from '@/lib/env';
import type { TRegistrar } from './registrar';
import { simulatedRegistrar } from './simulated-registrar';

let override: TRegistrar | undefined;
let evm: { key: string; registrar: Promise<TRegistrar> } | undefined;

export async function currentRegistrar(): Promise<TRegistrar> {
  if (override) return override;
  const chain = env().chain;
  if (!chain) return simulatedRegistrar;
  const key = `${chain.rpcUrl}|${chain.registryAddress}`;
  if (evm?.key !== key) evm = { key, registrar: import('./evm-registrar').then((m) => m.createEvmRegistrar(chain)) };
  return evm.registrar;
}

/** Which registrar will take new registrations, without loading it. */
export function currentRegistrarKind(): TRegistrar['kind'] {
  return override?.kind ?? (env().chain ? 'evm' : 'simulated');
}

/** Tests: use this registrar until reset (undefined). */
export function setRegistrarForTests(r: TRegistrar | undefined) {
  override = r;
}
