import { defineConfig } from '@playwright/test';
import { E2E_CRON_SECRET, E2E_JWT_SECRET, E2E_SESSION_SECRET } from './e2e/fixtures/secret';

// End-to-end tests drive a production build in Debian's Chromium; nothing is downloaded.

/** The specs the phone project runs (see its comment below). */
const PHONE_SPECS = ['a11y', 'chats', 'feed-filters', 'onboarding', 'perps', 'pools'];
const port = Number(process.env.E2E_PORT ?? 3300);

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  // In CI a failed test runs once more, and one that then passes is reported flaky by name
  // (.ci/summary.mjs), so a flake is seen without sinking the run; a test that fails twice still
  // fails it. (The realtime spec's one flake so far was the app's: a post made while the feed's
  // first load was in flight stayed out of the author's feed, lib/client/queries/posts.ts.)
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '.reports/e2e.json' }]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 900 } } },
    // The phone runs the accessibility tour and the specs whose path differs most on a phone (the
    // menu, the chat and feed panes, the wizard, the perps and pools panels); market-page and
    // perps-page open phone contexts of their own on the desktop project. The rest would repeat
    // the desktop run at another width, and the suite is CI's largest share on two cores.
    {
      name: 'phone',
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
      testMatch: PHONE_SPECS.map((name) => `**/${name}.spec.ts`),
    },
  ],
  webServer: {
    command: `rm -rf .data-e2e && npm run build && node server.mjs`,
    url: `http://localhost:${port}/api/health`,
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: '.data-e2e',
      AUTH_JWT_SECRET: E2E_JWT_SECRET,
      CRON_SECRET: E2E_CRON_SECRET,
      // Signs the server's own sessions: the sign-in page's cookie is `__Host-pm_session`, Secure,
      // which Chromium and Playwright's request context accept on http://localhost.
      SESSION_SECRET: E2E_SESSION_SECRET,
      // The administrator of e2e/ui/moderation.spec.ts (a token subject, as ADMIN_SUBJECTS takes).
      ADMIN_SUBJECTS: 'e2e|moderation-admin',
      LOCAL_SCHEDULER: '0',
      // e2e/ui/chats.spec.ts runs the tick as of a later game time (the world's group invites run hourly).
      ALLOW_TEST_CLOCK: '1',
      NEXT_TELEMETRY_DISABLED: '1',
      // Anonymous limits count per client address, and every page and request of the run comes
      // from 127.0.0.1: a spec that asserts on an anonymous answer names its own client with this
      // header (a browser never sends it, so pages still count against the socket address).
      CLIENT_IP_HEADER: 'x-e2e-client',
    },
  },
});
