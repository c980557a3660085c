import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

// Boundaries of STYLE.md: the UI never reaches the database or server-only services, and pure
// math never imports I/O.
const serverOnly = [
  { group: ['@/db', '@/db/*', '**/db/*'], message: 'app/ and components/ must not import db/: call lib services through route handlers.' },
  { group: ['@/lib/ledger/*', '@/lib/users/service', '@/lib/users/queries', '@/lib/auth/*', '@/lib/http/route'], message: 'Server-only module: the UI talks to the API through lib/client.' },
];

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
    files: ['app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}'],
    ignores: ['app/api/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: serverOnly }] },
  },
  {
    files: ['app/api/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [serverOnly[0]] }] },
  },
  {
    files: ['lib/**/math.ts', 'lib/**/cpmm.ts', 'lib/money/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/db', '@/db/*', 'next', 'next/*', '@/lib/http/*'], message: 'Pure math does no I/O.' }] }],
    },
  },
];

export default config;
