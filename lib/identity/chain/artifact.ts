/**
 * The compiled identity registry, typed for viem. The bytecode comes from the committed
 * artefact (IdentityRegistry.json, written by `npm run chain:compile`); the ABI is restated here
 * in human-readable form so that viem infers function names, arguments and results.
 * artifact.test.ts proves this ABI is exactly the artefact's, and the artefact the source's.
 */
import { parseAbi } from 'viem';
import artifact from './IdentityRegistry.json';

export const identityRegistryAbi = parseAbi([
  'constructor()',
  'error NotOwner(address caller)',
  'error ZeroAddress()',
  'error TokenExists(uint256 tokenId)',
  'error NonexistentToken(uint256 tokenId)',
  'error IdentityIsSoulbound()',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'function owner() view returns (address)',
  'function name() pure returns (string)',
  'function symbol() pure returns (string)',
  'function supportsInterface(bytes4 interfaceId) pure returns (bool)',
  'function register(address to, uint256 tokenId)',
  'function exists(uint256 tokenId) view returns (bool)',
  'function ownerOf(uint256 tokenId) view returns (address holder)',
  'function balanceOf(address holder) view returns (uint256)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function getApproved(uint256 tokenId) view returns (address)',
  'function isApprovedForAll(address, address) pure returns (bool)',
  'function approve(address, uint256) pure',
  'function setApprovalForAll(address, bool) pure',
  'function transferFrom(address, address, uint256) pure',
  'function safeTransferFrom(address, address, uint256) pure',
  'function safeTransferFrom(address, address, uint256, bytes) pure',
]);

/** Creation bytecode: what a deployment sends. */
export const identityRegistryBytecode = artifact.bytecode as `0x${string}`;
