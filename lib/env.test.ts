import { afterEach, describe, expect, it, vi } from 'vitest';
import { boot } from './boot';
import { EnvError, parseEnv, resetEnvCache, splitDatabaseUrls } from './env';

/** A production environment that starts: every secret 32 bytes or more, no two alike. */
const PROD: Record<string, string | undefined> = {
  NODE_ENV: 'production',
  SESSION_SECRET: 'session-secret-0123456789abcdef0123456789',
  CRON_SECRET: 'cron-secret-0123456789abcdef0123456789abcd',
  AUTH_JWT_SECRET: 'jwt-secret-0123456789abcdef0123456789abcde',
};
const JWKS = { AUTH_JWKS_URL: 'https://idp.example/.well-known/jwks.json', AUTH_ISSUER: 'https://idp.example', AUTH_AUDIENCE: 'playmoney' };

describe('parseEnv', () => {
  it('reads DATABASE_URL_REPLICA as a list of URLs (none, one, several; multi-host URLs kept whole)', () => {
    expect(parseEnv({ NODE_ENV: 'development' }).databaseUrlReplicas).toEqual([]);
    expect(parseEnv({ NODE_ENV: 'development', DATABASE_URL_REPLICA: ' ' }).databaseUrlReplicas).toEqual([]);
    expect(parseEnv({ NODE_ENV: 'development', DATABASE_URL_REPLICA: 'postgres://r1/db' }).databaseUrlReplicas).toEqual(['postgres://r1/db']);
    expect(parseEnv({ NODE_ENV: 'development', DATABASE_URL_REPLICA: 'postgres://r1/db, postgresql://r2:5433/db,' }).databaseUrlReplicas).toEqual([
      'postgres://r1/db',
      'postgresql://r2:5433/db',
    ]);
    expect(splitDatabaseUrls('postgres://a:5432,b:5433/db,postgres://c/db')).toEqual(['postgres://a:5432,b:5433/db', 'postgres://c/db']);
  });

  it('uses development secrets outside production', () => {
    const e = parseEnv({ NODE_ENV: 'development' });
    expect(e.jwtSecret).toBeTruthy();
    expect(e.cronSecret).toBeTruthy();
    expect(e.startingBalance).toBe('1000');
    expect(e.dataDir).toBe('./.data');
    expect(e.localScheduler).toBe(true);
  });

  it('refuses production without a token secret or JWKS, or without CRON_SECRET', () => {
    expect(() => parseEnv({ ...PROD, AUTH_JWT_SECRET: undefined })).toThrow(/AUTH_JWT_SECRET or AUTH_JWKS_URL/);
    expect(() => parseEnv({ ...PROD, CRON_SECRET: undefined })).toThrow(/CRON_SECRET/);
    expect(parseEnv(PROD).jwtSecret).toBe(PROD.AUTH_JWT_SECRET);
    const jwksOnly = parseEnv({ ...PROD, AUTH_JWT_SECRET: undefined, ...JWKS });
    expect(jwksOnly.jwtSecret).toBeUndefined();
    // The session key is SESSION_SECRET itself, never derived from the cron secret.
    expect(jwksOnly.sessionSecret).toBe(PROD.SESSION_SECRET);
  });

  it('uses a development SESSION_SECRET outside production, of its own, and requires one in production', () => {
    const dev = parseEnv({ NODE_ENV: 'development' });
    expect(dev.sessionSecret).toBeTruthy();
    expect(new Set([dev.sessionSecret, dev.jwtSecret, dev.cronSecret]).size).toBe(3);
    expect(parseEnv({ NODE_ENV: 'development', SESSION_SECRET: 'mine' }).sessionSecret).toBe('mine');
    expect(() => parseEnv({ ...PROD, SESSION_SECRET: undefined })).toThrow(EnvError);
    expect(() => parseEnv({ ...PROD, SESSION_SECRET: ' ' })).toThrow(/SESSION_SECRET/);
    expect(parseEnv(PROD).sessionSecret).toBe(PROD.SESSION_SECRET);
  });

  it.each(['SESSION_SECRET', 'CRON_SECRET', 'AUTH_JWT_SECRET'])('refuses a %s shorter than 32 bytes in production, naming it', (name) => {
    const short = 'x'.repeat(31);
    expect(() => parseEnv({ ...PROD, [name]: short })).toThrow(EnvError);
    expect(() => parseEnv({ ...PROD, [name]: short })).toThrow(new RegExp(`${name} must be at least 32 bytes`));
    // Bytes, not characters: 16 two-byte characters are 32 bytes.
    expect(parseEnv({ ...PROD, [name]: 'é'.repeat(16) })).toBeTruthy();
    // Outside production a short secret is the developer's business.
    expect(() => parseEnv({ NODE_ENV: 'development', [name]: 'short' })).not.toThrow();
  });

  it('refuses production when two of the secrets are equal', () => {
    const same = 'the-same-secret-used-for-two-things-0123456789';
    expect(() => parseEnv({ ...PROD, SESSION_SECRET: same, CRON_SECRET: same })).toThrow(/SESSION_SECRET and CRON_SECRET must differ/);
    expect(() => parseEnv({ ...PROD, SESSION_SECRET: same, AUTH_JWT_SECRET: same })).toThrow(/SESSION_SECRET and AUTH_JWT_SECRET must differ/);
    expect(() => parseEnv({ ...PROD, CRON_SECRET: same, AUTH_JWT_SECRET: same })).toThrow(/CRON_SECRET and AUTH_JWT_SECRET must differ/);
  });

  it('reads AGENT_CARD_SIGNING_KEY as a private Ed25519 or P-256 JWK, unset when blank, refusing anything else', () => {
    const ed = { kty: 'OKP', crv: 'Ed25519', x: 'x', d: 'd', kid: 'k1' };
    expect(parseEnv({ AGENT_CARD_SIGNING_KEY: JSON.stringify(ed) }).agentCardSigningKey).toEqual(ed);
    const ec = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd' };
    expect(parseEnv({ ...PROD, AGENT_CARD_SIGNING_KEY: JSON.stringify(ec) }).agentCardSigningKey).toEqual(ec);
    expect(parseEnv({ AGENT_CARD_SIGNING_KEY: ' ' }).agentCardSigningKey).toBeUndefined();
    for (const bad of ['not json', JSON.stringify({ ...ed, d: undefined }), JSON.stringify({ kty: 'RSA', n: 'n', e: 'AQAB', d: 'd' }), JSON.stringify({ ...ec, y: undefined })]) {
      expect(() => parseEnv({ AGENT_CARD_SIGNING_KEY: bad }), bad).toThrow(/AGENT_CARD_SIGNING_KEY/);
    }
  });

  it('refuses AUTH_JWKS_URL without AUTH_ISSUER and AUTH_AUDIENCE in production', () => {
    const base = { ...PROD, AUTH_JWT_SECRET: undefined };
    expect(() => parseEnv({ ...base, AUTH_JWKS_URL: JWKS.AUTH_JWKS_URL })).toThrow(/AUTH_ISSUER and AUTH_AUDIENCE/);
    expect(() => parseEnv({ ...base, ...JWKS, AUTH_ISSUER: undefined })).toThrow(EnvError);
    expect(() => parseEnv({ ...base, ...JWKS, AUTH_AUDIENCE: undefined })).toThrow(EnvError);
    expect(parseEnv({ ...base, ...JWKS }).jwksUrl).toBe(JWKS.AUTH_JWKS_URL);
    // Outside production a key set alone is accepted (a local identity provider).
    expect(parseEnv({ NODE_ENV: 'development', AUTH_JWKS_URL: JWKS.AUTH_JWKS_URL }).jwksUrl).toBe(JWKS.AUTH_JWKS_URL);
  });

  it('parses lists and flags', () => {
    const e = parseEnv({
      ADMIN_SUBJECTS: 'a, b,,c',
      AGENT_CREDENTIALS: 'bot1:s3cret,bot2:x:y,bad',
      STARTING_BALANCE: '250.5',
      TRUST_PROXY: '1',
      LOCAL_SCHEDULER: '0',
      PUBLIC_BASE_URL: 'https://play.example/',
    });
    expect([...e.adminSubjects]).toEqual(['a', 'b', 'c']);
    expect(e.agentCredentials.get('bot1')).toBe('s3cret');
    expect(e.agentCredentials.get('bot2')).toBe('x:y');
    expect(e.agentCredentials.has('bad')).toBe(false);
    expect(e.startingBalance).toBe('250.5');
    expect(e.trustProxy).toBe(1);
    expect(e.localScheduler).toBe(false);
    expect(e.publicBaseUrl).toBe('https://play.example');
  });

  it('reads DATABASE_URL_UNPOOLED (a pooler is declared) and treats a blank one as unset', () => {
    const pooled = parseEnv({ DATABASE_URL: 'postgres://h:6432/db', DATABASE_URL_UNPOOLED: ' postgres://h:5432/db ' });
    expect(pooled.databaseUrl).toBe('postgres://h:6432/db');
    expect(pooled.databaseUrlUnpooled).toBe('postgres://h:5432/db');
    expect(parseEnv({ DATABASE_URL: 'postgres://h/db', DATABASE_URL_UNPOOLED: ' ' }).databaseUrlUnpooled).toBeUndefined();
  });

  it('reads TRUST_PROXY as a number of hops (unset: 0) and CLIENT_IP_HEADER as a header name, refusing anything else', () => {
    expect(parseEnv({}).trustProxy).toBe(0);
    expect(parseEnv({}).clientIpHeader).toBeUndefined();
    expect(parseEnv({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(parseEnv({ TRUST_PROXY: ' 0 ' }).trustProxy).toBe(0);
    expect(parseEnv({ CLIENT_IP_HEADER: 'X-Real-IP' }).clientIpHeader).toBe('x-real-ip');
    for (const bad of ['true', 'yes', '-1', '1.5', '100']) expect(() => parseEnv({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    expect(() => parseEnv({ CLIENT_IP_HEADER: 'x real ip' })).toThrow(/CLIENT_IP_HEADER/);
  });

  it('rejects a malformed STARTING_BALANCE', () => {
    expect(() => parseEnv({ STARTING_BALANCE: '-5' })).toThrow(EnvError);
  });
});

describe('boot', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = saved;
    resetEnvCache();
    vi.restoreAllMocks();
  });

  it('stops the server at start, naming the variable, when production has a short secret', async () => {
    Object.assign(process.env, PROD, { CRON_SECRET: 'too-short' });
    resetEnvCache();
    const exit = vi.spyOn(process, 'exit').mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as typeof process.exit);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(boot()).rejects.toThrow('exit 1');
    expect(exit).toHaveBeenCalledWith(1);
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/CRON_SECRET must be at least 32 bytes/));
  });
});
