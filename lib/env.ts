/**
 * Environment, validated once (CONTRACT.md "Environment"). No I/O beyond reading process.env.
 * Every other module reads configuration from here, never from process.env directly, so that a
 * bad value fails at start with one clear message instead of deep inside a request.
 */
import { z } from 'zod';

const DEV_JWT_SECRET = 'playmoney-development-secret-not-for-production';
const DEV_CRON_SECRET = 'playmoney-development-cron-secret';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: optionalString,
  DATABASE_URL_UNPOOLED: optionalString,
  DATA_DIR: z.string().default('./.data'),
  AUTH_JWKS_URL: optionalString,
  AUTH_ISSUER: optionalString,
  AUTH_AUDIENCE: optionalString,
  AUTH_JWT_SECRET: optionalString,
  ADMIN_SUBJECTS: optionalString,
  CRON_SECRET: optionalString,
  AGENT_CREDENTIALS: optionalString,
  UPSTASH_REDIS_REST_URL: optionalString,
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  REDIS_URL: optionalString,
  STARTING_BALANCE: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : '1000'))
    .refine((v) => /^\d+(\.\d+)?$/.test(v), 'STARTING_BALANCE must be a non-negative decimal'),
  ALLOW_TEST_CLOCK: optionalString,
  PUBLIC_BASE_URL: optionalString,
  TRUST_PROXY: optionalString,
  LOCAL_SCHEDULER: optionalString,
  DB_POOL_MAX: optionalString,
  GAME_SEED: optionalString,
  LLM_BASE_URL: optionalString,
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  CHAIN_RPC_URL: optionalString,
  IDENTITY_REGISTRY_ADDRESS: optionalString,
  REGISTRAR_PRIVATE_KEY: optionalString,
  SOCIAL_A_INTROSPECTION_URL: optionalString,
  SOCIAL_B_INTROSPECTION_URL: optionalString,
});

export type TEnv = {
  isProduction: boolean;
  isTest: boolean;
  databaseUrl?: string;
  /**
   * A direct connection when DATABASE_URL goes through a transaction-mode pooler (PgBouncer,
   * Neon's or Supabase's pooled URL): LISTEN, the migration lock and prepared statements use it.
   */
  databaseUrlUnpooled?: string;
  dataDir: string;
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /** HS256 secret for user tokens; undefined in production when only a JWKS is configured. */
  jwtSecret?: string;
  /** Secret that signs the service's own session tokens (agents, development sign-in). */
  sessionSecret: string;
  adminSubjects: ReadonlySet<string>;
  cronSecret: string;
  agentCredentials: ReadonlyMap<string, string>;
  upstashUrl?: string;
  upstashToken?: string;
  redisUrl?: string;
  startingBalance: string;
  allowTestClock: boolean;
  publicBaseUrl?: string;
  trustProxy: boolean;
  localScheduler: boolean;
  dbPoolMax: number;
  /** Seeds the game world's randomness: the same seed and game time make the same tick. */
  gameSeed: string;
  /** An OpenAI-compatible service for NPC posts; templates are used when unset or failing. */
  llm?: { baseUrl: string; apiKey: string; model: string };
  /** A real EVM node for on-chain identity registration; unset: the simulated registry in the database. */
  chain?: { rpcUrl: string; registryAddress: `0x${string}`; privateKey: `0x${string}` };
  /**
   * OAuth token-introspection URLs (RFC 7662) that verify linked social accounts and shares, per
   * platform. Unset: any token is accepted outside production and refused in production.
   */
  socialIntrospection: { social_a?: string; social_b?: string };
};

export class EnvError extends Error {}

/** Parses an environment into the typed config; throws EnvError on a value production refuses. */
export const parseEnv = (source: Record<string, string | undefined>): TEnv => {
  const parsed = ZEnv.safeParse(source);
  if (!parsed.success) {
    throw new EnvError(`Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  if (isProduction && !e.AUTH_JWT_SECRET && !e.AUTH_JWKS_URL) {
    throw new EnvError('Production needs AUTH_JWT_SECRET or AUTH_JWKS_URL to verify access tokens');
  }
  if (isProduction && !e.CRON_SECRET) {
    throw new EnvError('Production needs CRON_SECRET for /api/cron/game-tick');
  }
  const chainVars = [e.CHAIN_RPC_URL, e.IDENTITY_REGISTRY_ADDRESS, e.REGISTRAR_PRIVATE_KEY];
  if (chainVars.some(Boolean) && !chainVars.every(Boolean)) {
    throw new EnvError('On-chain registration needs all of CHAIN_RPC_URL, IDENTITY_REGISTRY_ADDRESS and REGISTRAR_PRIVATE_KEY');
  }
  if (e.IDENTITY_REGISTRY_ADDRESS && !/^0x[0-9a-fA-F]{40}$/.test(e.IDENTITY_REGISTRY_ADDRESS)) {
    throw new EnvError('IDENTITY_REGISTRY_ADDRESS must be a 20-byte hex address');
  }
  if (e.REGISTRAR_PRIVATE_KEY && !/^0x[0-9a-fA-F]{64}$/.test(e.REGISTRAR_PRIVATE_KEY)) {
    throw new EnvError('REGISTRAR_PRIVATE_KEY must be a 32-byte hex key with its 0x prefix');
  }
  const jwtSecret = e.AUTH_JWT_SECRET ?? (isProduction ? undefined : DEV_JWT_SECRET);
  const cronSecret = e.CRON_SECRET ?? DEV_CRON_SECRET;
  const agentCredentials = new Map<string, string>();
  for (const pair of (e.AGENT_CREDENTIALS ?? '').split(',')) {
    const idx = pair.indexOf(':');
    if (idx <= 0) continue;
    agentCredentials.set(pair.slice(0, idx).trim(), pair.slice(idx + 1).trim());
  }
  return {
    isProduction,
    isTest: e.NODE_ENV === 'test',
    databaseUrl: e.DATABASE_URL,
    databaseUrlUnpooled: e.DATABASE_URL_UNPOOLED,
    dataDir: e.DATA_DIR,
    jwksUrl: e.AUTH_JWKS_URL,
    issuer: e.AUTH_ISSUER,
    audience: e.AUTH_AUDIENCE,
    jwtSecret,
    // With only a JWKS there is no shared secret; our own session tokens are then signed with a
    // key derived from the cron secret, which production always has.
    sessionSecret: jwtSecret ?? `session:${cronSecret}`,
    adminSubjects: new Set((e.ADMIN_SUBJECTS ?? '').split(',').map((s) => s.trim()).filter(Boolean)),
    cronSecret,
    agentCredentials,
    upstashUrl: e.UPSTASH_REDIS_REST_URL,
    upstashToken: e.UPSTASH_REDIS_REST_TOKEN,
    redisUrl: e.REDIS_URL,
    startingBalance: e.STARTING_BALANCE,
    allowTestClock: e.ALLOW_TEST_CLOCK === '1',
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY === '1',
    localScheduler: e.LOCAL_SCHEDULER !== '0',
    dbPoolMax: Number(e.DB_POOL_MAX ?? 10) || 10,
    gameSeed: e.GAME_SEED ?? 'playmoney',
    llm:
      e.LLM_BASE_URL && e.LLM_API_KEY
        ? { baseUrl: e.LLM_BASE_URL.replace(/\/+$/, ''), apiKey: e.LLM_API_KEY, model: e.LLM_MODEL ?? 'gpt-4o-mini' }
        : undefined,
    chain:
      e.CHAIN_RPC_URL && e.IDENTITY_REGISTRY_ADDRESS && e.REGISTRAR_PRIVATE_KEY
        ? {
            rpcUrl: e.CHAIN_RPC_URL,
            registryAddress: e.IDENTITY_REGISTRY_ADDRESS as `0x${string}`,
            privateKey: e.REGISTRAR_PRIVATE_KEY as `0x${string}`,
          }
        : undefined,
    socialIntrospection: { social_a: e.SOCIAL_A_INTROSPECTION_URL, social_b: e.SOCIAL_B_INTROSPECTION_URL },
  };
};

let cached: TEnv | undefined;

/** The process environment, parsed on first use. */
export const env = (): TEnv => (cached ??= parseEnv(process.env));

/** Tests change process.env and call this so the next env() reads it again. */
export const resetEnvCache = () => {
  cached = undefined;
};
