import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env';

describe('parseEnv', () => {
  it('uses development secrets outside production', () => {
    const e = parseEnv({ NODE_ENV: 'development' });
    expect(e.jwtSecret).toBeTruthy();
    expect(e.cronSecret).toBeTruthy();
    expect(e.startingBalance).toBe('1000');
    expect(e.dataDir).toBe('./.data');
    expect(e.localScheduler).toBe(true);
  });

  it('refuses production without a token secret or JWKS, or without CRON_SECRET', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', CRON_SECRET: 'c' })).toThrow(EnvError);
    expect(() => parseEnv({ NODE_ENV: 'production', AUTH_JWT_SECRET: 's' })).toThrow(/CRON_SECRET/);
    expect(parseEnv({ NODE_ENV: 'production', AUTH_JWT_SECRET: 's', CRON_SECRET: 'c' }).jwtSecret).toBe('s');
    const jwksOnly = parseEnv({ NODE_ENV: 'production', AUTH_JWKS_URL: 'https://idp/jwks', CRON_SECRET: 'c' });
    expect(jwksOnly.jwtSecret).toBeUndefined();
    expect(jwksOnly.sessionSecret).toContain('c');
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
    expect(e.trustProxy).toBe(true);
    expect(e.localScheduler).toBe(false);
    expect(e.publicBaseUrl).toBe('https://play.example');
  });

  it('reads DATABASE_URL_UNPOOLED (a pooler is declared) and treats a blank one as unset', () => {
    const pooled = parseEnv({ DATABASE_URL: 'postgres://h:6432/db', DATABASE_URL_UNPOOLED: ' postgres://h:5432/db ' });
    expect(pooled.databaseUrl).toBe('postgres://h:6432/db');
    expect(pooled.databaseUrlUnpooled).toBe('postgres://h:5432/db');
    expect(parseEnv({ DATABASE_URL: 'postgres://h/db', DATABASE_URL_UNPOOLED: ' ' }).databaseUrlUnpooled).toBeUndefined();
  });

  it('rejects a malformed STARTING_BALANCE', () => {
    expect(() => parseEnv({ STARTING_BALANCE: '-5' })).toThrow(EnvError);
  });
});
