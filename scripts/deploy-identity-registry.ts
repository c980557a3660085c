/**
 * npm run chain:deploy — deploys the identity registry (lib/identity/chain) to CHAIN_RPC_URL,
 * owned by REGISTRAR_PRIVATE_KEY's account (the account that will mint), and prints the
 * IDENTITY_REGISTRY_ADDRESS line to add to the environment. The key is never printed.
 */
import { deployIdentityRegistry } from '@/lib/identity/evm-registrar';

const rpcUrl = process.env.CHAIN_RPC_URL?.trim();
const privateKey = process.env.REGISTRAR_PRIVATE_KEY?.trim();
if (!rpcUrl || !privateKey) {
  console.error('error: set CHAIN_RPC_URL and REGISTRAR_PRIVATE_KEY');
  process.exit(1);
}
if (!/^0x[0-9a-fA-F]{64}$/.test(privateKey)) {
  console.error('error: REGISTRAR_PRIVATE_KEY must be a 32-byte hex key with its 0x prefix');
  process.exit(1);
}

try {
  const address = await deployIdentityRegistry({ rpcUrl, privateKey: privateKey as `0x${string}` });
  console.log(`IdentityRegistry deployed at ${address}`);
  console.log('Set this in the environment (with CHAIN_RPC_URL and REGISTRAR_PRIVATE_KEY):');
  console.log(`IDENTITY_REGISTRY_ADDRESS=${address}`);
} catch (e) {
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
