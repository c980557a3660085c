/**
 * Compiles the identity registry (IdentityRegistry.sol) with the pinned solc (devDependency):
 * standard JSON input, optimizer on with 200 runs, evmVersion cancun. No I/O beyond reading the
 * source file it is given. `npm run chain:compile` writes the result to IdentityRegistry.json,
 * and artifact.test.ts compiles again to prove the committed artefact matches the source.
 * Warnings fail the compile as errors do: the contract is small enough to keep clean.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

export const CONTRACT_NAME = 'IdentityRegistry';
export const SOURCE_PATH = fileURLToPath(new URL('./IdentityRegistry.sol', import.meta.url));
export const ARTIFACT_PATH = fileURLToPath(new URL('./IdentityRegistry.json', import.meta.url));

/** What the artefact records as the compiler settings (outputSelection aside). */
export const COMPILER_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
} as const;

export type TCompiledArtifact = {
  contractName: string;
  compiler: { version: string; settings: typeof COMPILER_SETTINGS };
  abi: unknown[];
  bytecode: `0x${string}`;
  deployedBytecode: `0x${string}`;
};

type TSolcMessage = { severity: 'error' | 'warning' | 'info'; formattedMessage: string };
type TSolcContract = { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } };
type TSolcOutput = { errors?: TSolcMessage[]; contracts?: Record<string, Record<string, TSolcContract>> };

/** The solc version string, e.g. "0.8.37+commit.f401782d.Emscripten.clang". */
export function solcVersion(): string {
  return solc.version();
}

/** Compiles the registry at `sourcePath`; throws with solc's messages on any error or warning. */
export function compileIdentityRegistry(sourcePath: string = SOURCE_PATH): TCompiledArtifact {
  // The key names the source in the metadata hash at the end of the bytecode, so it is fixed
  // (never the absolute path) to keep the output the same on every machine.
  const fileName = `${CONTRACT_NAME}.sol`;
  const input = {
    language: 'Solidity',
    sources: { [fileName]: { content: fs.readFileSync(sourcePath, 'utf8') } },
    settings: {
      ...COMPILER_SETTINGS,
      outputSelection: { [fileName]: { [CONTRACT_NAME]: ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as TSolcOutput;
  const problems = (output.errors ?? []).filter((m) => m.severity !== 'info');
  if (problems.length > 0) throw new Error(`solc: ${problems.map((m) => m.formattedMessage).join('\n')}`);
  const contract = output.contracts?.[fileName]?.[CONTRACT_NAME];
  if (!contract) throw new Error(`solc produced no ${CONTRACT_NAME} contract`);
  return {
    contractName: CONTRACT_NAME,
    compiler: { version: solcVersion(), settings: COMPILER_SETTINGS },
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
    deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
  };
}
