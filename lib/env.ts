/**
 * Environment, validated once (README "Environment"). No I/O beyond reading process.env.
 * Every other module reads configuration from here, never from process.env directly, so that a
 * bad value fails at start with one clear message instead of deep inside a request.
 */
import { z } from 'zod';

const DEV_JWT_SECRET = 'playmoney-development-secret-not-for-production';
const DEV_CRON_SECRET = 'playmoney-development-cron-secret';
const DEV_SESSION_SECRET = 'playmoney-development-session-secret-not-for-production';

/** The least a production secret may hold: 32 bytes, the size of the HS256 key it becomes. */
export const MIN_SECRET_BYTES = 32;

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: optionalString,
  DATABASE_URL_UNPOOLED: optionalString,
  DATABASE_URL_REPLICA: optionalString,
  DATA_DIR: z.string().default('./.data'),
  AUTH_JWKS_URL: optionalString,
  AUTH_ISSUER: optionalString,
  AUTH_AUDIENCE: optionalString,
  AUTH_JWT_SECRET: optionalString,
  ADMIN_SUBJECTS: optionalString,
  CRON_SECRET: optionalString,
  SESSION_SECRET: optionalString,
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
  TRUST_PROXY: optionalString.refine((v) => v === undefined || /^\d{1,2}$/.test(v), 'TRUST_PROXY must be the number of trusted proxy hops (0, 1, 2, …)'),
  CLIENT_IP_HEADER: optionalString.refine((v) => v === undefined || /^[A-Za-z0-9-]{1,64}$/.test(v), 'CLIENT_IP_HEADER must be a header name'),
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
  AGENT_CARD_SIGNING_KEY: optionalString,
  METRICS_TOKEN: optionalString,
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
  /**
   * DATABASE_URL_REPLICA: read-only streaming replicas of DATABASE_URL (one URL, or several
   * separated by commas). Operations that declare `reads: 'replica'` read from them, round robin
   * (db/client.ts, lib/operations/read-routing.ts); empty: every read goes to DATABASE_URL.
   */
  databaseUrlReplicas: string[];
  dataDir: string;
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /**
   * HS256 secret of an external (self-hosted) issuer's access tokens; it verifies those and
   * nothing else. Undefined in production when only a JWKS is configured.
   */
  jwtSecret?: string;
  /**
   * SESSION_SECRET: signs and verifies the service's own session tokens (sign-in cookies, the
   * development sign-in, agent sessions) and nothing else. Never derived from another secret.
   */
  sessionSecret: string;
  adminSubjects: ReadonlySet<string>;
  cronSecret: string;
  agentCredentials: ReadonlyMap<string, string>;
  upstashUrl?: string;
  upstashToken?: string;
  redisUrl?: string;
  /** A Prometheus scraper's bearer token for GET /api/metrics (administrators' tokens work too); unset: admins only. */
  metricsToken?: string;
  startingBalance: string;
  allowTestClock: boolean;
  publicBaseUrl?: string;
  /** Trusted proxy hops in front of the service: the client is that many entries from the right of X-Forwarded-For; 0: the socket address. */
  trustProxy: number;
  /** A header a trusted proxy sets to the client address (e.g. `x-real-ip`), read instead of X-Forwarded-For; lower case. */
  clientIpHeader?: string;
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
  /**
   * AGENT_CARD_SIGNING_KEY: the private JWK (Ed25519 `OKP` or P-256 `EC`) that signs the A2A agent
   * card (lib/a2a/card-signing.ts). Unset: a fixed development key outside production, a key of the
   * process's own in production.
   */
  agentCardSigningKey?: TPrivateJwk;
};

/** A private JSON Web Key as AGENT_CARD_SIGNING_KEY holds it. */
export type TPrivateJwk = { kty: 'OKP' | 'EC'; crv: 'Ed25519' | 'P-256'; d: string; x: string; y?: string; kid?: string };

/** AGENT_CARD_SIGNING_KEY read: a private Ed25519 or P-256 JWK, or EnvError naming what is wrong. */
function parseSigningKey(raw: string | undefined): TPrivateJwk | undefined {
  if (!raw) return undefined;
  let jwk: unknown;
  try {
    jwk = JSON.parse(raw);
  } catch {
    throw new EnvError('AGENT_CARD_SIGNING_KEY must be a private JWK as JSON');
  }
  const k = jwk as Record<string, unknown>;
  const okp = k?.kty === 'OKP' && k.crv === 'Ed25519';
  const ec = k?.kty === 'EC' && k.crv === 'P-256' && typeof k.y === 'string';
  if (!(okp || ec) || typeof k.d !== 'string' || typeof k.x !== 'string' || (k.kid !== undefined && typeof k.kid !== 'string')) {
    throw new EnvError('AGENT_CARD_SIGNING_KEY must be a private JWK (d included) of kty OKP with crv Ed25519, or kty EC with crv P-256');
  }
  return k as TPrivateJwk;
}

export class EnvError extends Error {}

/**
 * A comma-separated list of PostgreSQL URLs. A part that does not start with a scheme belongs to
 * the URL before it (a multi-host URL, `postgres://a:5432,b:5432/db`, has commas of its own).
 */
export function splitDatabaseUrls(raw: string | undefined): string[] {
  const urls: string[] = [];
  for (const part of (raw ?? '').split(',')) {
    const p = part.trim();
    if (!p) continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p) || urls.length === 0) urls.push(p);
    else urls[urls.length - 1] += `,${p}`;
  }
  return urls;
}

type TRawEnv = z.infer<typeof ZEnv>;

/**
 * What production refuses to start without (README "Secrets and sessions"): a way to verify access tokens
 * (AUTH_JWKS_URL with its issuer and audience, or AUTH_JWT_SECRET), and SESSION_SECRET,
 * CRON_SECRET and AUTH_JWT_SECRET (when set) of at least MIN_SECRET_BYTES each, no two equal: each
 * key means one thing, so holding one (every scheduler holds the cron secret) forges nothing else.
 */
const assertProductionSecrets = (e: TRawEnv) => {
  if (!e.AUTH_JWT_SECRET && !e.AUTH_JWKS_URL) {
    throw new EnvError('Production needs AUTH_JWT_SECRET or AUTH_JWKS_URL to verify access tokens');
  }
  if (e.AUTH_JWKS_URL && (!e.AUTH_ISSUER || !e.AUTH_AUDIENCE)) {
    throw new EnvError('Production with AUTH_JWKS_URL needs AUTH_ISSUER and AUTH_AUDIENCE: a key set alone would accept any token its keys signed, for any service');
  }
  if (!e.CRON_SECRET) throw new EnvError('Production needs CRON_SECRET for /api/cron/game-tick');
  if (!e.SESSION_SECRET) throw new EnvError('Production needs SESSION_SECRET to sign its session tokens (sign-in cookies, agent sessions)');
  const secrets: [string, string | undefined][] = [
    ['SESSION_SECRET', e.SESSION_SECRET],
    ['CRON_SECRET', e.CRON_SECRET],
    ['AUTH_JWT_SECRET', e.AUTH_JWT_SECRET],
    ['METRICS_TOKEN', e.METRICS_TOKEN],
  ];
  for (const [name, value] of secrets) {
    if (value !== undefined && new TextEncoder().encode(value).length < MIN_SECRET_BYTES) {
      throw new EnvError(`${name} must be at least ${MIN_SECRET_BYTES} bytes in production (e.g. \`openssl rand -base64 32\`)`);
    }
  }
  for (let i = 0; i < secrets.length; i++) {
    for (let j = i + 1; j < secrets.length; j++) {
      const [a, va] = secrets[i]!;
      const [b, vb] = secrets[j]!;
      if (va !== undefined && va === vb) throw new EnvError(`${a} and ${b} must differ: each secret signs one thing only`);
    }
  }
};

/** Parses an environment into the typed config; throws EnvError on a value production refuses. */
export function parseEnv(source: Record<string, string | undefined>): TEnv {
  const parsed = ZEnv.safeParse(source);
  if (!parsed.success) {
    throw new EnvError(`Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  if (isProduction) assertProductionSecrets(e);
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
  const sessionSecret = e.SESSION_SECRET ?? DEV_SESSION_SECRET;
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
    databaseUrlReplicas: splitDatabaseUrls(e.DATABASE_URL_REPLICA),
    dataDir: e.DATA_DIR,
    jwksUrl: e.AUTH_JWKS_URL,
    issuer: e.AUTH_ISSUER,
    audience: e.AUTH_AUDIENCE,
    jwtSecret,
    sessionSecret,
    adminSubjects: new Set((e.ADMIN_SUBJECTS ?? '').split(',').map((s) => s.trim()).filter(Boolean)),
    cronSecret,
    agentCredentials,
    upstashUrl: e.UPSTASH_REDIS_REST_URL,
    upstashToken: e.UPSTASH_REDIS_REST_TOKEN,
    redisUrl: e.REDIS_URL,
    metricsToken: e.METRICS_TOKEN,
    startingBalance: e.STARTING_BALANCE,
    allowTestClock: e.ALLOW_TEST_CLOCK === '1',
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    trustProxy: Number(e.TRUST_PROXY ?? 0),
    clientIpHeader: e.CLIENT_IP_HEADER?.toLowerCase(),
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
    agentCardSigningKey: parseSigningKey(e.AGENT_CARD_SIGNING_KEY),
  };
}

let cached: TEnv | undefined;

/** The process environment, parsed on first use. */
export function env(): TEnv {
  return (cached ??= parseEnv(process.env));
}

/** Tests change process.env and call this so the next env() reads it again. */
export function resetEnvCache() {
  cached = undefined;
}
