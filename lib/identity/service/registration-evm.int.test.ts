/**
 * The whole registration path on a real EVM node: with CHAIN_RPC_URL, IDENTITY_REGISTRY_ADDRESS
 * and REGISTRAR_PRIVATE_KEY set, POST /api/users/onboarding/onchain records an `evm` intent, the
 * tick's step mints the token id through the registry on anvil and records the receipt's hash;
 * a registry address without a contract fails the intent with a reason, and a retry completes it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { GET as onchainStatus, POST as onchainStart } from '@/app/api/users/onboarding/onchain/route';
import { resetEnvCache } from '@/lib/env';
import { setLimiter } from '@/lib/operations/rate-limit';
import { startAnvil, type TAnvil } from '@/test/anvil';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';
import { identityRegistryAbi } from '../chain/artifact';
import { deployIdentityRegistry } from '../evm-registrar';
import type { THexAddress } from '../registrar';
import { processPendingRegistrations } from './registration';

const CHAIN_VARS = ['CHAIN_RPC_URL', 'IDENTITY_REGISTRY_ADDRESS', 'REGISTRAR_PRIVATE_KEY'] as const;

describe('on-chain registration through the EVM registrar (anvil)', () => {
  let anvil: TAnvil | undefined;
  let registry: THexAddress;
  let key: THexAddress;
  const saved = Object.fromEntries(CHAIN_VARS.map((k) => [k, process.env[k]]));

  const useChain = (registryAddress: string) => {
    process.env.CHAIN_RPC_URL = anvil!.rpcUrl;
    process.env.IDENTITY_REGISTRY_ADDRESS = registryAddress;
    process.env.REGISTRAR_PRIVATE_KEY = key;
    resetEnvCache();
  };

  beforeAll(async () => {
    anvil = await startAnvil();
    key = anvil.privateKeys[0]!;
    registry = await deployIdentityRegistry({ rpcUrl: anvil.rpcUrl, privateKey: key });
  });
  beforeEach(() => setLimiter(pinnedLimiter()));
  afterAll(async () => {
    for (const k of CHAIN_VARS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    resetEnvCache();
    await anvil?.stop();
  });

  const ownerOf = (tokenId: number) =>
    createPublicClient({ chain: foundry, transport: http(anvil!.rpcUrl) }).readContract({
      address: registry,
      abi: identityRegistryAbi,
      functionName: 'ownerOf',
      args: [BigInt(tokenId)],
    });

  it('mints the intent token id, records the transaction hash and registers the player', async () => {
    useChain(registry);
    const u = await seedUser();
    const token = await tokenFor(u);
    const started = await call(onchainStart, '/api/users/onboarding/onchain', { method: 'POST', token });
    expect(started.status).toBe(200);
    expect(started.body.onboardingIntent).toMatchObject({ status: 'ONCHAIN_IN_PROGRESS', registrar: 'evm', txHash: null });
    const tokenId = started.body.onboardingIntent.nftTokenId as number;
    await processPendingRegistrations();
    const status = await call(onchainStatus, '/api/users/onboarding/onchain', { token });
    expect(status.body.onChainRegistered).toBe(true);
    expect(status.body.onboardingIntent).toMatchObject({ status: 'COMPLETED', nftTokenId: tokenId, attempts: 1 });
    expect(status.body.onboardingIntent.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    // Without a wallet the registrar holds the identity in custody.
    const custody = privateKeyToAccount(key).address;
    expect(status.body.onboardingIntent.ownerAddress).toBe(custody);
    expect(await ownerOf(tokenId)).toBe(custody);
  });

  it('fails with a reason on a registry address without a contract, and a retry on the right one completes', async () => {
    useChain('0x000000000000000000000000000000000000dEaD');
    const u = await seedUser();
    const token = await tokenFor(u);
    const started = await call(onchainStart, '/api/users/onboarding/onchain', { method: 'POST', token });
    await processPendingRegistrations();
    const failed = await call(onchainStatus, '/api/users/onboarding/onchain', { token });
    expect(failed.body.onboardingIntent.status).toBe('FAILED');
    expect(failed.body.onboardingIntent.failureReason).toMatch(/0x000000000000000000000000000000000000dEaD/i);
    expect(failed.body.onChainRegistered).toBe(false);
    useChain(registry);
    const retried = await call(onchainStart, '/api/users/onboarding/onchain', { method: 'POST', token });
    expect(retried.body.onboardingIntent).toMatchObject({ status: 'ONCHAIN_IN_PROGRESS', nftTokenId: started.body.onboardingIntent.nftTokenId });
    await processPendingRegistrations();
    const done = await call(onchainStatus, '/api/users/onboarding/onchain', { token });
    expect(done.body.onboardingIntent).toMatchObject({ status: 'COMPLETED', attempts: 2 });
    expect(await ownerOf(started.body.onboardingIntent.nftTokenId)).toBe(privateKeyToAccount(key).address);
  });
});
