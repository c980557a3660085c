/**
 * The committed artefact is what the pinned compiler makes of the committed source, and the
 * typed ABI in artifact.ts is the artefact's: a contract edited without `npm run chain:compile`
 * (or an ABI edited by hand) fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { identityRegistryAbi, identityRegistryBytecode } from './artifact';
import { ARTIFACT_PATH, compileIdentityRegistry } from './compile';

const committed = JSON.parse(fs.readFileSync(ARTIFACT_PATH, 'utf8'));
const packageJson = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'));

type TAbiParam = { type: string; name?: string; indexed?: boolean };
type TAbiItem = { type: string; name?: string; inputs?: TAbiParam[]; outputs?: TAbiParam[]; stateMutability?: string; anonymous?: boolean };

/** One line per ABI item with everything that matters to a caller (solc's internalType aside), sorted. */
const signatures = (abi: readonly unknown[]) =>
  (abi as TAbiItem[])
    .map((item) => {
      const params = (ps: TAbiParam[] = []) => ps.map((p) => `${p.type}${p.indexed ? ' indexed' : ''} ${p.name ?? ''}`.trim()).join(', ');
      const anonymous = item.anonymous ? ' anonymous' : '';
      return `${item.type} ${item.name ?? ''}(${params(item.inputs)}) ${item.stateMutability ?? ''}${anonymous} returns (${params(item.outputs)})`;
    })
    .sort();

describe('identity registry artefact', () => {
  const fresh = compileIdentityRegistry();

  it('matches a fresh compile of IdentityRegistry.sol (run npm run chain:compile after editing the contract)', () => {
    expect(committed.abi).toEqual(fresh.abi);
    expect(committed.bytecode).toBe(fresh.bytecode);
    expect(committed.deployedBytecode).toBe(fresh.deployedBytecode);
    expect(committed.compiler.settings).toEqual(fresh.compiler.settings);
    expect(committed.bytecode).toMatch(/^0x[0-9a-f]{200,}$/);
  });

  it('was made by the solc version package.json pins', () => {
    const pinned = packageJson.devDependencies.solc;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(committed.compiler.version).toBe(fresh.compiler.version);
    expect(committed.compiler.version.startsWith(`${pinned}+commit.`)).toBe(true);
  });

  it('artifact.ts exports the same ABI and bytecode', () => {
    expect(signatures(identityRegistryAbi)).toEqual(signatures(committed.abi));
    expect(identityRegistryAbi).toHaveLength(committed.abi.length);
    expect(identityRegistryBytecode).toBe(committed.bytecode);
  });
});
