/**
 * npm run chain:compile — compiles lib/identity/chain/IdentityRegistry.sol with the pinned solc
 * and writes the committed artefact lib/identity/chain/IdentityRegistry.json. Run after editing
 * the contract: artifact.test.ts fails while the two disagree.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ARTIFACT_PATH, compileIdentityRegistry } from '@/lib/identity/chain/compile';

const artifact = compileIdentityRegistry();
fs.writeFileSync(ARTIFACT_PATH, `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), ARTIFACT_PATH)} (${artifact.compiler.version})`);
