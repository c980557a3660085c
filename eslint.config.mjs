import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

// Boundaries (README "Architecture": enforced rather than remembered). The browser side is held to
// allow-lists: a page or component may import only what is listed below, so a new server module is
// out of its reach by default instead of waiting for someone to add it to a deny-list. Packages
// from node_modules and files of the same folder ('./x') are always allowed; a relative path that
// climbs out ('../') is not, since it would get around the list.

/**
 * A no-restricted-imports pattern that refuses every module of this repository ('@/…' or '../…')
 * except the allowed ones: 'folder/**' allows a folder and everything under it, any other entry
 * exactly one module.
 */
const allowOnly = (allowed, message) => {
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const open = allowed.map((a) => (a.endsWith('/**') ? escape(a.slice(0, -2)) : `${escape(a)}$`));
  return { regex: `^(?!(?:${open.join('|')}))(?:@/|\\.\\./)`, message };
};

/** Pure modules (no I/O, nothing server-only behind them) that components use directly, named one by one. */
const UI_PURE_MODULES = [
  '@/lib/posts/text', // rich text links #tags and @mentions with the server's own patterns
  '@/lib/posts/feed-filter', // the home feed's filter tabs and ?filter= are the API's own filter names
  '@/lib/posts/receipts', // NPC trade receipts folded into digest lines (pure, unit-tested beside it)
  '@/lib/users/names', // the sign-in form checks a username's shape as the server does
  '@/lib/users/links', // every link to a profile is built by one function, the server's too
  '@/lib/system/llms-txt', // the developer page's examples name the agent endpoints /llms.txt names
];

/** What pages and components may import: the typed client and its queries, the contracts, other components. */
const UI_ALLOWED = ['@/lib/client/**', '@/lib/contracts/**', '@/components/**', ...UI_PURE_MODULES];
const UI_MESSAGE = 'Pages and components import only lib/client, lib/contracts, components and the pure modules named in eslint.config.mjs: the UI talks to the server through lib/client.';

/** The browser's client: the contracts it speaks and the pure rules it shares with the server. */
const CLIENT_ALLOWED = [
  '@/lib/client/**',
  '@/lib/contracts/**',
  '@/lib/errors/app-error', // ApiError's codes are the server's table
  '@/lib/markets/cpmm', // the trade preview runs the server's market maker
  '@/lib/money/decimal',
  '@/lib/perps/math', // the order preview runs the server's perp math
  '@/lib/perps/orders', // stop-loss, take-profit and limit previews run the server's perp order math
  '@/lib/pools/math', // the deposit and withdraw previews run the server's pool accounting
  '@/lib/posts/text', // post and comment length as the server counts it
  '@/lib/referrals/link', // the referral link and the cookie that carries its code to the wizard
  '@/lib/uploads/limits', // the image size checked before uploading
  '@/lib/users/names', // username shape before asking the server
];

// Markets, perps and pools all feed the portfolio (components/portfolio imports them); none imports
// another, so they never grow back into a loop.
const notFrom = (folders, message) => ({ group: folders.flatMap((f) => [`@/components/${f}`, `@/components/${f}/*`]), message });

const noDb = { group: ['@/db', '@/db/*', '**/db/*'], message: 'Route handlers call lib services; only services touch db/.' };

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: ['.next/**', 'node_modules/**', 'db/migrations/**', 'next-env.d.ts', 'playwright-report/**', 'test-results/**', '.reports/**'],
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['components/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [allowOnly(UI_ALLOWED, UI_MESSAGE)] }] },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/api/**', 'app/.well-known/**', 'app/llms.txt/**', 'app/**/opengraph-image.tsx'],
    rules: {
      // Pages also build their share metadata on the server (generateMetadata).
      'no-restricted-imports': ['error', { patterns: [allowOnly([...UI_ALLOWED, '@/lib/og/metadata'], UI_MESSAGE)] }],
    },
  },
  {
    // Share images are drawn on the server, by lib/og alone.
    files: ['app/**/opengraph-image.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [allowOnly(['@/lib/og/cards', '@/lib/og/images'], 'A share image route calls lib/og and nothing else.')] }],
    },
  },
  {
    files: ['components/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            allowOnly(
              ['@/components/ui/**', ...UI_PURE_MODULES],
              'components/ui holds primitives: no data (lib/client) and no other component folder; a piece two domains share moves here instead.',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['components/markets/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            allowOnly(UI_ALLOWED, UI_MESSAGE),
            // Posts show a market inside a post; the market page gets its discussion from the page.
            notFrom(['perps', 'pools', 'portfolio', 'posts'], 'Markets never import perps, pools, the portfolio or posts: shared pieces go to components/ui.'),
          ],
        },
      ],
    },
  },
  {
    files: ['components/perps/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [allowOnly(UI_ALLOWED, UI_MESSAGE), notFrom(['markets', 'pools', 'portfolio'], 'Perps never import markets, pools or the portfolio: shared pieces go to components/ui.')] },
      ],
    },
  },
  {
    files: ['components/pools/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [allowOnly(UI_ALLOWED, UI_MESSAGE), notFrom(['markets', 'perps', 'portfolio'], 'Pools never import markets, perps or the portfolio: shared pieces go to components/ui.')] },
      ],
    },
  },
  {
    // Posts, comments and profiles mount the moderation menu and the admin console reuses its
    // dialog and pager: moderation imports none of them, so neither can grow back into a loop.
    files: ['components/moderation/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            allowOnly(UI_ALLOWED, UI_MESSAGE),
            notFrom(['admin', 'posts', 'comments', 'users', 'shell'], 'Moderation is mounted by posts, comments, profiles and the admin console; it never imports them: shared pieces go to components/ui.'),
          ],
        },
      ],
    },
  },
  {
    // Profiles mount the Message button, the navigation the unread count and groups the
    // conversation: chats imports none of them, so neither can grow back into a loop.
    files: ['components/chats/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            allowOnly(UI_ALLOWED, UI_MESSAGE),
            notFrom(['groups', 'posts', 'comments', 'users', 'shell', 'admin'], 'Chats are mounted by profiles, groups and the navigation; they never import them: shared pieces go to components/ui.'),
          ],
        },
      ],
    },
  },
  {
    // A group's page reuses the chats' conversation; nothing social or the shell comes in.
    files: ['components/groups/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            allowOnly(UI_ALLOWED, UI_MESSAGE),
            notFrom(['posts', 'comments', 'users', 'shell', 'admin'], 'Groups never import the social components or the shell: shared pieces go to components/ui.'),
          ],
        },
      ],
    },
  },
  {
    // The navigation shows the console's link, so the console never imports the shell.
    files: ['components/admin/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [allowOnly(UI_ALLOWED, UI_MESSAGE), notFrom(['shell', 'posts', 'comments', 'users'], 'The admin console never imports the shell or the social components that mount moderation: shared pieces go to components/ui.')] },
      ],
    },
  },
  {
    files: ['lib/client/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [allowOnly(CLIENT_ALLOWED, 'lib/client runs in the browser: it imports the contracts and the pure modules named in eslint.config.mjs, never a server module.')] },
      ],
    },
  },
  {
    // Route handlers: app/api, the well-known documents (the A2A agent card) and /llms.txt.
    files: ['app/api/**/*.ts', 'app/.well-known/**/*.ts', 'app/llms.txt/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noDb] }] },
  },
  {
    files: ['lib/**/math.ts', 'lib/**/cpmm.ts', 'lib/money/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/db', '@/db/*', 'next', 'next/*', '@/lib/http/*'], message: 'Pure math does no I/O.' }] }],
    },
  },
];

export default config;
