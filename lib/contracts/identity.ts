/** On-chain identity: a player's or an agent's registration (an onboarding intent) and its status. */
import { z } from 'zod';
import { ZSuccess, ZTimestamp } from './common';
import { defineEndpoint } from './endpoint';

export const ZOnboardingIntent = z.object({
  id: z.string(),
  status: z.enum(['ONCHAIN_IN_PROGRESS', 'COMPLETED', 'FAILED']),
  nftTokenId: z.number().int().positive(),
  registrar: z.enum(['simulated', 'evm']),
  txHash: z.string().nullable(),
  ownerAddress: z.string().nullable(),
  failureReason: z.string().nullable(),
  attempts: z.number().int(),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
  completedAt: ZTimestamp.nullable(),
});

export const identityStartOnchain = defineEndpoint({
  id: 'identity.startOnchain',
  method: 'POST',
  path: '/api/users/onboarding/onchain',
  summary: 'Start your on-chain identity registration (a second call answers the same intent; a failed one is retried)',
  tag: 'identity',
  auth: 'user',
  requires: ['account'],
  rateLimit: 'profileUpdate',
  response: z.object({ success: ZSuccess, onboardingIntent: ZOnboardingIntent }),
});

const ZStatus = z.object({ success: ZSuccess, onChainRegistered: z.boolean(), onboardingIntent: ZOnboardingIntent.nullable() });

export const identityOnchainStatus = defineEndpoint({
  id: 'identity.onchainStatus',
  method: 'GET',
  path: '/api/users/onboarding/onchain',
  summary: 'Your on-chain registration: whether you are registered and the intent (null before you started one)',
  tag: 'identity',
  auth: 'user',
  requires: ['read'],
  response: ZStatus,
});

const ZAgentStatus = ZStatus.extend({ agentId: z.string() });

export const identityAgentOnboardStatus = defineEndpoint({
  id: 'identity.agentOnboardStatus',
  method: 'GET',
  path: '/api/agents/onboard',
  summary: "The authenticated agent's on-chain registration status (agent session tokens only)",
  tag: 'identity',
  auth: 'user',
  requires: ['read'],
  response: ZAgentStatus,
  errors: ['NOT_AN_AGENT'],
});

export const identityAgentOnboard = defineEndpoint({
  id: 'identity.agentOnboard',
  method: 'POST',
  path: '/api/agents/onboard',
  summary: 'Register the authenticated agent on chain, as players are (agent session tokens only); answers its status',
  tag: 'identity',
  auth: 'user',
  requires: ['account'],
  rateLimit: 'profileUpdate',
  response: ZAgentStatus,
  errors: ['NOT_AN_AGENT'],
});

export const identityEndpoints = [identityStartOnchain, identityOnchainStatus, identityAgentOnboardStatus, identityAgentOnboard] as const;
