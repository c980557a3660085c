/**
 * The security suite's servers (vitest globalSetup of vitest.security.config.ts): two production
 * servers from the built tree (OPS_APP_DIR, as the operations suite), one on a throwaway
 * PostgreSQL database and one on the embedded PGlite in a fresh temporary DATA_DIR, both with the
 * production environment of the README ("Environment", "Secrets and sessions"): NODE_ENV=production, three distinct random secrets of 32
 * bytes and more (SESSION_SECRET, AUTH_JWT_SECRET, CRON_SECRET), an administrator subject,
 * TRUST_PROXY=1 (one proxy hop), no in-process scheduler and no test clock. Every test file reads
 * them through `inject('security')` (./harness.ts) and runs its attacks against both.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../ops/processes';
import { createDatabase, dropDatabase, startServer, type TServer } from '../ops/servers';
import type { TSecurityContext } from './harness';

/** Our own origin as the servers are configured to know it (PUBLIC_BASE_URL). */
const PUBLIC_BASE_URL = 'https://play.security.test';

const secret = () => randomBytes(32).toString('base64url');

export default async function setup(project: TestProject) {
  const run = `${process.pid}-${randomBytes(3).toString('hex')}`;
  const secrets = { session: secret(), jwt: secret(), cron: secret() };
  const adminSubject = `sec-admin-${run}`;
  const agent = { id: `sec-agent-${run}`, secret: secret() };
  const env = {
    SESSION_SECRET: secrets.session,
    AUTH_JWT_SECRET: secrets.jwt,
    CRON_SECRET: secrets.cron,
    ADMIN_SUBJECTS: adminSubject,
    AGENT_CREDENTIALS: `${agent.id}:${agent.secret}`,
    LOCAL_SCHEDULER: '0',
    TRUST_PROXY: '1',
    PUBLIC_BASE_URL,
    ALLOW_TEST_CLOCK: undefined,
  };

  const dirs: string[] = [];
  const servers: TServer[] = [];
  let db: { name: string; url: string } | undefined;
  const teardown = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    if (db) await dropDatabase(db.name);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };

  try {
    const tempDir = () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'pm-security-'));
      dirs.push(dir);
      return dir;
    };
    db = await createDatabase('security');
    const pgDataDir = tempDir();
    const pgliteDataDir = tempDir();
    // One at a time: each start migrates and seeds its database on two busy cores.
    const pg = await startServer({ port: await freePort(), label: 'security-postgres', env: { ...env, DATABASE_URL: db.url, DATA_DIR: pgDataDir } });
    servers.push(pg);
    const lite = await startServer({ port: await freePort(), label: 'security-pglite', env: { ...env, DATABASE_URL: undefined, DATA_DIR: pgliteDataDir } });
    servers.push(lite);
    const context: TSecurityContext = {
      servers: [
        { name: 'postgres', base: pg.base, dataDir: pgDataDir },
        { name: 'pglite', base: lite.base, dataDir: pgliteDataDir },
      ],
      secrets,
      adminSubject,
      agent,
      publicBaseUrl: PUBLIC_BASE_URL,
    };
    project.provide('security', context);
  } catch (e) {
    await teardown();
    throw e;
  }
  return teardown;
}
