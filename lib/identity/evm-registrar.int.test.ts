/**
 * The EVM registrar against a real node: anvil (test/anvil.ts) with the committed registry
 * deployed by its first dev account, which is therefore the registry's owner and the registrar.
 * The second dev account plays a player's wallet, and an impostor registrar. Tests run in order
 * and share the chain: each mints its own token ids, and the retry test follows the failure tests.
 * One test deploys a second registry, and one mines by hand to race two mints of one token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createTestClient, createWalletClient, encodeFunctionData, getAddress, getContractAddress, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { startAnvil, type TAnvil } from '@/test/anvil';
import { identityRegistryAbi } from './chain/artifact';
import { createEvmRegistrar, deployIdentityRegistry } from './evm-registrar';
import { RegistrarError, type THexAddress, type TRegistrationReceipt } from './registrar';

const TX_HASH = /^0x[0-9a-f]{64}$/;

/** The RegistrarError `p` rejects with; fails the test when it resolves or throws anything else. */
const registrarFailure = async (p: Promise<unknown>): Promise<RegistrarError> => {
  const outcome = await p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a RegistrarError, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(RegistrarError);
  return outcome.error as RegistrarError;
};

describe('EVM registrar (anvil)', () => {
  let anvil: TAnvil | undefined;
  let rpcUrl: string;
  let ownerKey: `0x${string}`;
  let playerKey: `0x${string}`;
  let registrarAddress: THexAddress;
  let player: THexAddress;
  let registryAddress: THexAddress;
  let chain: PublicClient;

  const read = {
    ownerOf: (id: bigint) => chain.readContract({ address: registryAddress, abi: identityRegistryAbi, functionName: 'ownerOf', args: [id] }),
    exists: (id: bigint) => chain.readContract({ address: registryAddress, abi: identityRegistryAbi, functionName: 'exists', args: [id] }),
    balanceOf: (a: THexAddress) => chain.readContract({ address: registryAddress, abi: identityRegistryAbi, functionName: 'balanceOf', args: [a] }),
  };

  beforeAll(async () => {
    anvil = await startAnvil();
    rpcUrl = anvil.rpcUrl;
    [ownerKey, playerKey] = anvil.privateKeys as [`0x${string}`, `0x${string}`];
    registrarAddress = privateKeyToAccount(ownerKey).address;
    player = privateKeyToAccount(playerKey).address;
    chain = createPublicClient({ chain: foundry, transport: http(rpcUrl) });
    registryAddress = await deployIdentityRegistry({ rpcUrl, privateKey: ownerKey });
  });

  // Runs even when a test or beforeAll failed after anvil started: no node outlives the file.
  afterAll(async () => {
    await anvil?.stop();
  });

  const registrar = () => createEvmRegistrar({ rpcUrl, registryAddress, privateKey: ownerKey });

  it('deploys a soulbound ERC-721 owned by the deploying account', async () => {
    const registry = { address: registryAddress, abi: identityRegistryAbi } as const;
    expect(await chain.getCode({ address: registryAddress })).toMatch(/^0x[0-9a-f]{100,}$/);
    expect(await chain.readContract({ ...registry, functionName: 'owner' })).toBe(registrarAddress);
    expect(await chain.readContract({ ...registry, functionName: 'symbol' })).toBe('PMID');
    expect(await chain.readContract({ ...registry, functionName: 'supportsInterface', args: ['0x80ac58cd'] })).toBe(true);
    expect(await chain.readContract({ ...registry, functionName: 'supportsInterface', args: ['0xffffffff'] })).toBe(false);
    expect(await read.exists(1n)).toBe(false);
  });

  it("mints a token to the player's wallet and answers the transaction hash", async () => {
    // A lowercase wallet address, as a user might have stored it.
    const receipt = await registrar().register({ tokenId: 1, userId: 'u1', owner: player.toLowerCase() as THexAddress });
    expect(receipt.txHash).toMatch(TX_HASH);
    expect(receipt.owner).toBe(player);
    expect(await read.ownerOf(1n)).toBe(player);
    expect(await read.balanceOf(player)).toBe(1n);
    const mined = await chain.getTransactionReceipt({ hash: receipt.txHash as THexAddress });
    expect(mined.status).toBe('success');
    expect(mined.to?.toLowerCase()).toBe(registryAddress.toLowerCase());
  });

  it("mints to the registrar's own address when the player has no wallet (custody)", async () => {
    const receipt = await registrar().register({ tokenId: 2, userId: 'u2', owner: null });
    expect(receipt.txHash).toMatch(TX_HASH);
    expect(receipt.owner).toBe(registrarAddress);
    expect(await read.ownerOf(2n)).toBe(registrarAddress);
  });

  it('is idempotent: an existing token resolves with txHash null, its holder, and no second mint', async () => {
    const blockBefore = await chain.getBlockNumber();
    const receipt = await registrar().register({ tokenId: 1, userId: 'u1', owner: null });
    expect(receipt).toEqual({ txHash: null, owner: player });
    expect(await read.balanceOf(player)).toBe(1n);
    expect(await read.balanceOf(registrarAddress)).toBe(1n);
    expect(await chain.getBlockNumber()).toBe(blockBefore);
  });

  it("fails with a RegistrarError when the account is not the registry's owner", async () => {
    const impostor = createEvmRegistrar({ rpcUrl, registryAddress, privateKey: playerKey });
    const error = await registrarFailure(impostor.register({ tokenId: 3, userId: 'u3', owner: player }));
    expect(error.reason).toBe("the registrar's account is not the identity registry's owner");
    expect(await read.exists(3n)).toBe(false);
  });

  it('fails with a RegistrarError naming the address when no contract is there', async () => {
    const nowhere = '0x000000000000000000000000000000000000dEaD';
    const misconfigured = createEvmRegistrar({ rpcUrl, registryAddress: nowhere, privateKey: ownerKey });
    const error = await registrarFailure(misconfigured.register({ tokenId: 3, userId: 'u3', owner: player }));
    expect(error.reason).toBe(`no identity registry at ${nowhere}`);
    expect(await read.exists(3n)).toBe(false);
  });

  it('keeps no failed connection: a registrar configured before its registry is deployed works once it is', async () => {
    const nonce = await chain.getTransactionCount({ address: registrarAddress });
    const next = getContractAddress({ from: registrarAddress, nonce: BigInt(nonce) });
    const early = createEvmRegistrar({ rpcUrl, registryAddress: next, privateKey: ownerKey });
    expect((await registrarFailure(early.register({ tokenId: 1, userId: 'u1', owner: null }))).reason).toBe(`no identity registry at ${next}`);
    expect(await deployIdentityRegistry({ rpcUrl, privateKey: ownerKey })).toBe(next);
    const receipt = await early.register({ tokenId: 1, userId: 'u1', owner: null });
    expect(receipt).toEqual({ txHash: expect.stringMatching(TX_HASH), owner: registrarAddress });
  });

  it('retries the failed token with the right registrar, and it succeeds', async () => {
    const receipt = await registrar().register({ tokenId: 3, userId: 'u3', owner: player });
    expect(receipt.txHash).toMatch(TX_HASH);
    expect(await read.ownerOf(3n)).toBe(player);
    expect(await read.balanceOf(player)).toBe(2n);
  });

  it('refuses to mint to the zero address', async () => {
    const zero = '0x0000000000000000000000000000000000000000';
    const error = await registrarFailure(registrar().register({ tokenId: 4, userId: 'u4', owner: zero }));
    expect(error.reason).toBe('an identity cannot be minted to the zero address');
    expect(await read.exists(4n)).toBe(false);
  });

  it('fails with a RegistrarError when the node does not answer', async () => {
    const closed = createEvmRegistrar({ rpcUrl: 'http://127.0.0.1:9', registryAddress, privateKey: ownerKey });
    const error = await registrarFailure(closed.register({ tokenId: 5, userId: 'u5', owner: null }));
    expect(error.reason).toBe('the chain node did not answer');
  });

  it('mints once when two ticks race on one token: one answers the hash, the other txHash null', async () => {
    const wallet = '0x1111111111111111111111111111111111111111';
    const node = createTestClient({ mode: 'anvil', chain: foundry, transport: http(rpcUrl) });
    // Blocks are mined by hand, so the second tick runs while the first's mint is still pending:
    // it either sends its own (which reverts when mined) or meets the pending one while estimating.
    await node.setAutomine(false);
    let racing: Promise<PromiseSettledResult<TRegistrationReceipt>[]> | undefined;
    try {
      racing = Promise.allSettled([registrar(), registrar()].map((r) => r.register({ tokenId: 6, userId: 'u6', owner: wallet })));
      const deadline = Date.now() + 10_000;
      while ((await node.getTxpoolStatus()).pending < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      await node.mine({ blocks: 1 });
    } finally {
      await node.setAutomine(true);
    }
    const settled = await racing;
    const receipts = settled.map((s) => (s.status === 'fulfilled' ? s.value : { error: String(s.reason) }));
    expect(receipts).toEqual(expect.arrayContaining([{ txHash: expect.stringMatching(TX_HASH), owner: wallet }, { txHash: null, owner: wallet }]));
    expect(await read.ownerOf(6n)).toBe(wallet);
    expect(await read.balanceOf(wallet)).toBe(1n);
  });

  it('never lets a token move: a transfer by its holder reverts, as a call and as a mined transaction', async () => {
    const transfer = { address: registryAddress, abi: identityRegistryAbi, functionName: 'transferFrom', args: [player, registrarAddress, 1n] } as const;
    await expect(chain.readContract({ ...transfer, account: player })).rejects.toThrow(/IdentityIsSoulbound/);
    // Sent for real with a fixed gas limit (no estimate to stop it first): mined, and reverted.
    const wallet = createWalletClient({ account: privateKeyToAccount(playerKey), chain: foundry, transport: http(rpcUrl) });
    const hash = await wallet.sendTransaction({ to: registryAddress, data: encodeFunctionData(transfer), gas: 100_000n });
    expect((await chain.waitForTransactionReceipt({ hash })).status).toBe('reverted');
    expect(await read.ownerOf(1n)).toBe(getAddress(player));
    expect(await read.balanceOf(registrarAddress)).toBe(1n);
  });
});
