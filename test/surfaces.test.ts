/**
 * Each product behind one door (issue 30): two structural rules a reviewer would otherwise have
 * to remember.
 *
 * 1. Surfaces. lib/markets, lib/perps, lib/pools, lib/ledger, lib/points and lib/events each name,
 *    in the "Surface" section of their README, the files other folders may import. lib/game,
 *    lib/pools, lib/notifications and lib/admin (the folders that drive or watch the products)
 *    import a product only through those files: runtime imports, `import type`, re-exports and
 *    `import()` alike.
 * 2. Table ownership. Each table names the folder (or the one file) that writes it, and any other
 *    writer with the reason it may. A write is a drizzle `.insert(t)`, `.update(t)` or
 *    `.delete(t)` on a table of db/schema, or raw SQL in any string or template
 *    (`insert into`, `update`, `delete from`, followed by `${table}` or a table's name); every
 *    non-test file under lib/ and db/ (but db/schema and db/migrations) is read.
 *
 * Both rules come with a check of the check on made-up sources, as test/structure.test.ts does for
 * the balance writers.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '@/db/schema';

const root = path.resolve(import.meta.dirname, '..');
const relOf = (file: string) => path.relative(root, file).split(path.sep).join('/');

const walk = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
        const p = path.join(dir, d.name);
        return d.isDirectory() ? walk(p) : [p];
      })
    : [];

/** Application source under `dir`: .ts and .tsx, no tests, no declarations. */
const sourcesUnder = (dir: string) =>
  walk(path.join(root, dir)).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.d.ts'));

// ---------------------------------------------------------------------------------------------
// 1. Surfaces
// ---------------------------------------------------------------------------------------------

/** Each product's surface, as its README's "Surface" section names it (paths inside the folder). */
const SURFACES: Record<string, readonly string[]> = {
  'lib/markets': [
    'cpmm.ts',
    'dto.ts',
    'sql.ts',
    'service/buy-shares.ts',
    'service/sell-shares.ts',
    'service/create-market.ts',
    'service/resolve-market.ts',
    'service/read-markets.ts',
    'service/price-points.ts',
    'history.ts',
    'orders/close-orders.ts',
    'orders/take.ts',
    'volume.ts',
  ],
  'lib/perps': [
    'math.ts',
    'dto.ts',
    'service/open-position.ts',
    'service/close-position.ts',
    'service/liquidate.ts',
    'service/funding.ts',
    'service/marks.ts',
    'service/set-price.ts',
    'service/read.ts',
    'service/read-candles.ts',
    'service/read-trades.ts',
    'service/sql.ts',
    'service/orders.ts',
    'orders.ts',
    'history.ts',
    'volume.ts',
  ],
  'lib/pools': [
    'math.ts',
    'dto.ts',
    'holdings.ts',
    'service/create-pool.ts',
    'service/trade.ts',
    'service/shared.ts',
    'service/read.ts',
    'service/deposit.ts',
    'service/withdraw.ts',
    'service/invest.ts',
  ],
  'lib/ledger': ['ledger.ts', 'queries.ts', 'batch.ts'],
  'lib/points': ['ledger.ts', 'milestones.ts', 'service/milestones.ts', 'service/award-points.ts', 'service/transfer-points.ts', 'service/read-points.ts'],
  'lib/events': ['outbox.ts', 'types.ts'],
};

/** The folders that reach a product only through its surface. */
const SURFACE_BOUND = ['lib/game', 'lib/pools', 'lib/notifications', 'lib/admin'];

const folderOf = (p: string) => {
  const [top, name] = p.split('/');
  return top === 'lib' && name ? `lib/${name}` : top!;
};

/** Every module specifier of a source: imports (type-only too), re-exports, `import()` and `import('…').T`. */
const specifiersOf = (file: string, src: string) => {
  const source = ts.createSourceFile(file, src, ts.ScriptTarget.Latest, true);
  const out: { spec: string; line: number }[] = [];
  const add = (lit: ts.StringLiteralLike) => out.push({ spec: lit.text, line: source.getLineAndCharacterOfPosition(lit.getStart(source)).line + 1 });
  const visit = (n: ts.Node) => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) add(n.moduleSpecifier);
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0])) add(n.arguments[0]);
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) add(n.argument.literal);
    ts.forEachChild(n, visit);
  };
  visit(source);
  return out;
};

/** Where a specifier of `file` points, as a repository path without extension, or null for a package. */
const targetOf = (file: string, spec: string) => {
  if (spec.startsWith('@/')) return spec.slice(2).replace(/\.tsx?$/, '');
  if (spec.startsWith('.')) return path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.tsx?$/, '');
  return null;
};

/** The imports of `file` (a repository path) that reach a product outside its surface. */
const findSurfaceBreaches = (file: string, src: string) => {
  const from = folderOf(file);
  if (!SURFACE_BOUND.includes(from)) return [];
  const breaches: string[] = [];
  for (const { spec, line } of specifiersOf(file, src)) {
    const target = targetOf(file, spec);
    if (!target) continue;
    const product = folderOf(target);
    const surface = SURFACES[product];
    if (!surface || product === from) continue;
    const inner = target.slice(product.length + 1);
    if (![`${inner}.ts`, `${inner}.tsx`, `${inner}/index.ts`].some((f) => surface.includes(f))) breaches.push(`${file}:${line} -> ${spec}`);
  }
  return breaches;
};

describe('each product is reached through its surface', () => {
  it('lib/game, lib/pools, lib/notifications and lib/admin import a product only through the files its README names', () => {
    const breaches = SURFACE_BOUND.flatMap((dir) => sourcesUnder(dir)).flatMap((f) => findSurfaceBreaches(relOf(f), fs.readFileSync(f, 'utf8')));
    expect(breaches).toEqual([]);
  });

  it("every declared surface file exists, and its product's README names it in its Surface section", () => {
    const missing: string[] = [];
    for (const [product, files] of Object.entries(SURFACES)) {
      const readme = fs.readFileSync(path.join(root, product, 'README.md'), 'utf8');
      const section = /^## Surface\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1];
      expect(section, `${product}/README.md has a "## Surface" section`).toBeTruthy();
      for (const f of files) {
        if (!fs.existsSync(path.join(root, product, f))) missing.push(`${product}/${f} does not exist`);
        if (!section!.includes(f)) missing.push(`${product}/README.md's Surface does not name ${f}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the surface rule sees runtime, type-only, re-exported and dynamic imports (the check itself)', () => {
    const found = (src: string, file = 'lib/game/steps/evil.ts') => findSurfaceBreaches(file, src).map((b) => b.replace(/^[^ ]+ -> /, ''));
    expect(found("import { lockMarket } from '@/lib/markets/service/shared';")).toEqual(['@/lib/markets/service/shared']);
    expect(found("import type { TBuyRow } from '@/lib/markets/queries';")).toEqual(['@/lib/markets/queries']);
    expect(found("export { perpUpdateCtes } from '@/lib/perps/service/events';")).toEqual(['@/lib/perps/service/events']);
    expect(found("const m = await import('@/lib/pools/service/read-internals');")).toEqual(['@/lib/pools/service/read-internals']);
    expect(found("let x: import('@/lib/ledger/internal').T;")).toEqual(['@/lib/ledger/internal']);
    expect(found("import { outboxCtes } from '../../events/internal';", 'lib/admin/detector/x.ts')).toEqual(['../../events/internal']);
    expect(found("import * as markets from '@/lib/markets';", 'lib/notifications/x.ts')).toEqual(['@/lib/markets']);
    // Allowed: the surface, a product's own files, folders that are not bound, packages, other folders.
    expect(found("import { setMarks } from '@/lib/perps/service/marks';\nimport type { TOutcome } from '@/lib/markets/cpmm';")).toEqual([]);
    expect(found("import { emitEvents } from '@/lib/events/outbox.ts';")).toEqual([]);
    expect(found("import { lockPool } from './shared';", 'lib/pools/service/evil.ts')).toEqual([]);
    expect(found("import { lockMarket } from '@/lib/markets/service/shared';", 'lib/world/seed/evil.ts')).toEqual([]);
    expect(found("import { sql } from 'drizzle-orm';\nimport { getDb } from '@/db/client';\nimport { notify } from '@/lib/notifications/service';")).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Table ownership
// ---------------------------------------------------------------------------------------------

/** The seed inserts the world's fixed rows in bulk, once and idempotently (lib/world/README.md "Tables"). */
const SEED = 'the world seed inserts its fixed rows in bulk, in one idempotent transaction';
/** The backfill writes the past in bulk (lib/game/backfill/write.ts): it moves seed rows back to the window's start and bulk-inserts points. */
const BACKFILL = "the backfill writes the past once: seed rows moved back to the window's start (created_at), bulk points and marks";

/**
 * Who may write each table: its owner (a folder ending in '/', or one file) and any other writer,
 * each with its reason. A table that some file writes and that is not here fails the rule.
 */
const TABLE_WRITERS: Record<string, { owner: string; others?: Record<string, string> }> = {
  // The products.
  markets: { owner: 'lib/markets/', others: { 'lib/world/seed/world.ts': SEED, 'lib/game/backfill/write.ts': BACKFILL } },
  market_positions: { owner: 'lib/markets/' },
  trades: { owner: 'lib/markets/' },
  market_price_points: { owner: 'lib/markets/', others: { 'lib/game/backfill/write.ts': BACKFILL } },
  // A new season's seating under way and its plan (migration 0033): the seating step alone.
  league_seating: { owner: 'lib/leagues/service/seasons.ts' },
  league_seating_plan: { owner: 'lib/leagues/service/seasons.ts' },
  // Filled by a trigger on trades (migration 0031); the tick's pruning is the only write in code.
  market_volume_hours: { owner: 'lib/markets/volume.ts' },
  // Filled by a trigger on perp_trades (migration 0032); the tick's pruning is the only write in code.
  perp_volume_hours: { owner: 'lib/perps/volume.ts' },
  perp_markets: { owner: 'lib/perps/', others: { 'lib/world/seed/world.ts': SEED, 'lib/game/backfill/write.ts': BACKFILL } },
  perp_positions: {
    owner: 'lib/perps/',
    others: { 'lib/notifications/trading.ts': "the liquidation warning's once-marker (liquidation_warned_at), set in the warning's own statement" },
  },
  perp_trades: { owner: 'lib/perps/' },
  prediction_orders: { owner: 'lib/markets/' },
  perp_orders: { owner: 'lib/perps/' },
  perp_price_points: { owner: 'lib/perps/', others: { 'lib/world/seed/world.ts': SEED, 'lib/game/backfill/write.ts': BACKFILL } },
  perp_funding_rates: { owner: 'lib/perps/' },
  perp_funding_payments: { owner: 'lib/perps/' },
  pools: { owner: 'lib/pools/', others: { 'lib/game/backfill/write.ts': BACKFILL } },
  pool_deposits: { owner: 'lib/pools/', others: { 'lib/game/backfill/write.ts': BACKFILL } },
  pool_withdrawals: { owner: 'lib/pools/' },
  pool_nav_points: { owner: 'lib/pools/', others: { 'lib/game/backfill/write.ts': BACKFILL } },
  balance_transactions: { owner: 'lib/ledger/', others: { 'lib/game/backfill/write.ts': BACKFILL } },
  // Kept by a trigger on balance_transactions, and the classes it sums by (migration 0034): no code writes either.
  account_totals: { owner: 'lib/ledger/' },
  ledger_type_classes: { owner: 'lib/ledger/' },
  // Kept by a trigger on posts (migration 0035): no code writes them.
  post_counts: { owner: 'lib/posts/' },
  post_totals: { owner: 'lib/posts/' },
  points_transactions: { owner: 'lib/points/' },
  points_awards: { owner: 'lib/points/' },
  event_log: { owner: 'lib/events/', others: { 'lib/realtime/reader.ts': 'delivery prunes the log it replays from (the tick calls pruneEventLog)' } },
  // The world and the game.
  world_events: { owner: 'lib/world/events.ts' },
  organizations: { owner: 'lib/game/', others: { 'lib/world/seed/world.ts': SEED } },
  actors: { owner: 'lib/world/', others: { 'lib/game/backfill/write.ts': BACKFILL } },
  market_biases: { owner: 'lib/game/' },
  question_rules: { owner: 'lib/game/', others: { 'lib/world/seed/world.ts': SEED } },
  game_clock: { owner: 'lib/game/' },
  storylines: { owner: 'lib/game/' },
  storyline_beats: { owner: 'lib/game/' },
  npc_calls: { owner: 'lib/game/' },
  npc_calibration: { owner: 'lib/game/' },
  // Everyone else's.
  users: {
    owner: 'lib/users/',
    others: {
      'lib/ledger/': 'the balance columns: only the ledger moves money (test/structure.test.ts)',
      'lib/points/': 'reputation_points: only the points ledger moves points (test/structure.test.ts)',
      'lib/admin/': 'roles and bans',
      'lib/identity/': 'the on-chain registration flag',
      'lib/onboarding/': 'the linked social accounts',
      'lib/referrals/': 'referred_by, when a code is applied',
      'lib/waitlist/': 'the wallet address a waitlist bonus claims',
      'lib/api-keys/service.ts': 'bot_since: the first money call an account makes by API key marks it a bot',
      'lib/pools/service/create-pool.ts': "a pool's own account",
      'lib/world/seed/world.ts': SEED,
      'lib/game/backfill/write.ts': BACKFILL,
    },
  },
  user_bans: { owner: 'lib/admin/' },
  moderation_actions: { owner: 'lib/admin/' },
  report_actions: { owner: 'lib/admin/' },
  reports: { owner: 'lib/moderation/', others: { 'lib/admin/': 'the queue acts on reports, and the self-dealing detector files system reports' } },
  blocks: { owner: 'lib/moderation/' },
  mutes: { owner: 'lib/moderation/' },
  follows: { owner: 'lib/follows/', others: { 'lib/moderation/service/blocks.ts': 'a block ends the follows between the two, in its transaction' } },
  favorites: { owner: 'lib/follows/', others: { 'lib/moderation/service/blocks.ts': 'a block ends the favourites between the two, in its transaction' } },
  notifications: {
    owner: 'lib/notifications/',
    others: {
      'lib/perps/service/liquidate.ts': "the liquidation notice, in the sweep statement (and the backfill's writer, lib/perps/history.ts, through the same CTEs)",
      'lib/perps/service/order-triggers.ts': 'the notice of a fired stop-loss or take-profit or a filled limit order, in the statement that fires it',
      'lib/perps/service/funding.ts': "funding over a threshold (issue 35), in the funding period's statement",
      'lib/markets/service/notices.ts': "the resolution's payout notices, in its transaction (lib/markets does not import lib/notifications)",
      'lib/markets/orders/notices.ts': "a limit order's fill and expiry notices, in the transaction that filled or expired it",
      'lib/admin/service/ban-user.ts': 'the notice that a temporary ban ended, in the one statement that lifts every ended ban (the tick)',
    },
  },
  notification_preferences: { owner: 'lib/notifications/' },
  posts: {
    owner: 'lib/posts/',
    others: {
      'lib/comments/': "a comment moves its post's comment count",
      'lib/world/seed/world.ts': SEED,
      'lib/game/backfill/write.ts': "the backfill's NPC trade posts, bulk-inserted after the trades they name (the live tick posts through lib/posts)",
      'lib/game/backfill/chatter.ts': "the backfill's NPC chatter, bulk-inserted with comment counts that match its replies (the live tick posts through lib/posts)",
      'lib/game/storylines/service.ts': "storyline beats become their actors' posts, bulk-inserted and dated at each beat's time (the tick and the backfill alike)",
      'lib/admin/service/moderate-content.ts': 'a moderator removes or restores a post (its removed_* columns), with the trail row, in one transaction',
    },
  },
  post_tags: { owner: 'lib/posts/', others: { 'lib/world/seed/world.ts': SEED, 'lib/game/backfill/chatter.ts': "the backfill chatter's tags, parsed as lib/posts parses them" } },
  post_likes: { owner: 'lib/posts/' },
  shares: { owner: 'lib/posts/' },
  comments: {
    owner: 'lib/comments/',
    others: {
      'lib/posts/service/toggle-like.ts': 'one like toggle serves posts and comments',
      'lib/game/backfill/chatter.ts': "the backfill's NPC replies, bulk-inserted under the posts they answer (the live tick comments through lib/comments)",
      'lib/admin/service/moderate-content.ts': 'a moderator removes or restores a comment (its removed_* columns), with the trail row, in one transaction',
    },
  },
  comment_likes: { owner: 'lib/comments/', others: { 'lib/posts/service/toggle-like.ts': 'one like toggle serves posts and comments' } },
  chats: { owner: 'lib/chats/', others: { 'lib/groups/service/create-group.ts': "a group opens its chat in its creation's transaction" } },
  chat_messages: { owner: 'lib/chats/' },
  chat_participants: { owner: 'lib/chats/' },
  groups: { owner: 'lib/groups/' },
  group_members: { owner: 'lib/groups/' },
  group_invites: { owner: 'lib/groups/' },
  referrals: { owner: 'lib/referrals/' },
  referral_fees: { owner: 'lib/referrals/' },
  equity_snapshots: { owner: 'lib/leagues/' },
  league_seasons: { owner: 'lib/leagues/' },
  league_members: { owner: 'lib/leagues/' },
  league_close_progress: { owner: 'lib/leagues/' },
  // The tick's watermarks, read and written in one place for both steps that keep one (the
  // detector's row 'self_dealing', the price-move alerts' 'price_moves', the latter inside their run's statement).
  detector_state: { owner: 'db/watermarks.ts' },
  price_move_markets: { owner: 'lib/notifications/trading.ts' },
  standings: { owner: 'lib/standings/', others: { 'lib/api-keys/service.ts': "the bot mark's kind, at once, in the transaction that marks the account" } },
  standings_dirty: { owner: 'lib/standings/' },
  a2a_tasks: { owner: 'lib/a2a/' },
  a2a_push_configs: { owner: 'lib/a2a/' },
  a2a_push_deliveries: { owner: 'lib/a2a/' },
  api_keys: { owner: 'lib/api-keys/', others: { 'lib/auth/api-key-credentials.ts': 'last_used_at, kept to the minute by the lookup that authenticates the key' } },
  api_key_spend: { owner: 'lib/api-keys/' },
  a2a_payment_requests: { owner: 'lib/payments/' },
  auth_sessions: { owner: 'lib/auth/' },
  idempotency_keys: { owner: 'lib/idempotency/' },
  onboarding_intents: { owner: 'lib/identity/' },
  share_actions: { owner: 'lib/onboarding/' },
  social_links: { owner: 'lib/onboarding/' },
  registry_apps: { owner: 'lib/registry/' },
  uploads: { owner: 'lib/uploads/' },
  waitlist_emails: { owner: 'lib/waitlist/' },
  waitlist_email_tokens: { owner: 'lib/waitlist/' },
  wallet_challenges: { owner: 'lib/wallets/' },
};

/**
 * Files whose raw SQL writes a table held in a variable, and the tables it can be. Anywhere else a
 * write to `${something}` that is not a table of db/schema fails: the rule must know the table.
 */
const VARIABLE_TABLES: Record<string, readonly string[]> = {
  'lib/posts/service/toggle-like.ts': ['post_likes', 'comment_likes', 'posts', 'comments'],
};

/** db/schema's exports → SQL table names. */
const TABLE_OF_EXPORT = new Map<string, string>(
  Object.entries(schema)
    .filter(([, v]) => is(v, PgTable))
    .map(([k, v]) => [k, getTableName(v as PgTable)]),
);
const TABLE_NAMES = new Set(TABLE_OF_EXPORT.values());

type TWrite = { file: string; line: number; table: string; via: 'drizzle' | 'sql' };

/**
 * The table writes of a source: drizzle's `.insert(t)`, `.update(t)`, `.delete(t)` with `t` a
 * db/schema table imported by the file (renamed imports followed), and raw SQL in any string or
 * template: `insert into`, `update` or `delete from` followed by `${t}` or a table's name (SQL
 * comments left out). A `${…}` that is not a table is reported as `?name`. A drizzle call on a
 * table held in a variable is not seen (the raw SQL form of it is).
 */
const findTableWrites = (file: string, src: string): TWrite[] => {
  const source = ts.createSourceFile(file, src, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const local = new Map<string, string>();
  for (const st of source.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !/(^|\/)db\/schema(\/[\w-]+)?$|^\.\.?\/schema(\/[\w-]+)?$/.test(st.moduleSpecifier.text)) continue;
    const named = st.importClause?.namedBindings;
    if (named && ts.isNamedImports(named)) {
      for (const e of named.elements) {
        const table = TABLE_OF_EXPORT.get((e.propertyName ?? e.name).text);
        if (table) local.set(e.name.text, table);
      }
    } else if (named && ts.isNamespaceImport(named)) {
      for (const [k, t] of TABLE_OF_EXPORT) local.set(`${named.name.text}.${k}`, t);
    }
  }
  const out: TWrite[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const sqlWrite = /\b(?:insert\s+into|update|delete\s+from)\s+(?:\$\{\s*([\w.]+)\s*\}|"?([A-Za-z_]\w*)"?)/gi;
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ['insert', 'update', 'delete'].includes(n.expression.name.text) && n.arguments.length === 1) {
      const table = local.get(n.arguments[0]!.getText(source));
      if (table) out.push({ file, line: lineOf(n.expression.name.getStart(source)), table, via: 'drizzle' });
    }
    // The text of a string or template, with `${expr}` kept as written and its offset in the file.
    const pieces: { text: string; at: number }[] = [];
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) pieces.push({ text: n.text, at: n.getStart(source) });
    if (ts.isTemplateExpression(n)) {
      pieces.push({ text: n.head.text + n.templateSpans.map((s) => `\${${s.expression.getText(source)}}${s.literal.text}`).join(''), at: n.getStart(source) });
    }
    for (const { text, at } of pieces) {
      const code = text.replace(/--[^\n]*/g, (c) => ' '.repeat(c.length));
      for (const m of code.matchAll(sqlWrite)) {
        const line = lineOf(at) + code.slice(0, m.index).split('\n').length - 1;
        if (m[1] !== undefined) out.push({ file, line, table: local.get(m[1]) ?? `?${m[1]}`, via: 'sql' });
        else if (TABLE_NAMES.has(m[2]!.toLowerCase())) out.push({ file, line, table: m[2]!.toLowerCase(), via: 'sql' });
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return out;
};

const mayWrite = (file: string, writer: string) => (writer.endsWith('/') ? file.startsWith(writer) : file === writer);

/** The writes of a source that its file may not make, as "file:line table (via)". */
const findForeignWrites = (file: string, src: string) =>
  findTableWrites(file, src).flatMap((w) => {
    const tables = w.table.startsWith('?') ? (VARIABLE_TABLES[file] ?? [w.table]) : [w.table];
    return tables
      .filter((t) => {
        const writers = TABLE_WRITERS[t];
        return !writers || ![writers.owner, ...Object.keys(writers.others ?? {})].some((wr) => mayWrite(file, wr));
      })
      .map((t) => `${w.file}:${w.line} ${t} (${w.via})`);
  });

describe('each table has its writers', () => {
  const files = [...sourcesUnder('lib'), ...sourcesUnder('db')].filter((f) => !/[\\/]db[\\/](schema|migrations)[\\/]/.test(f));

  it('every write under lib/ and db/ comes from a writer the table names', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => findForeignWrites(relOf(f), fs.readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('the map names real tables and writers that exist, and every listed writer does write the table', () => {
    const writes = files.flatMap((f) => findTableWrites(relOf(f), fs.readFileSync(f, 'utf8')));
    const problems: string[] = [];
    for (const [table, { owner, others }] of Object.entries(TABLE_WRITERS)) {
      if (!TABLE_NAMES.has(table)) problems.push(`${table} is not a table of db/schema`);
      for (const writer of [owner, ...Object.keys(others ?? {})]) {
        if (!fs.existsSync(path.join(root, writer))) problems.push(`${table}: writer ${writer} does not exist`);
      }
      // An exception nobody uses any more is a stale permission: take it out.
      for (const writer of Object.keys(others ?? {})) {
        const tables = (w: TWrite) => (w.table.startsWith('?') ? (VARIABLE_TABLES[w.file] ?? []) : [w.table]);
        if (!writes.some((w) => mayWrite(w.file, writer) && tables(w).includes(table))) problems.push(`${table}: ${writer} no longer writes it`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the ownership rule sees drizzle and raw SQL writes from the wrong folder (the check itself)', () => {
    const found = (src: string, file = 'lib/game/steps/evil.ts') => findForeignWrites(file, src).map((w) => w.replace(/^[^:]+:/, ''));
    const imports = "import { perpMarkets, perpPricePoints, worldEvents, markets as mk } from '@/db/schema';\n";
    // Drizzle, over several lines, through a renamed import.
    expect(found(`${imports}await tx.update(perpMarkets).set({ markPrice: '1' });`)).toEqual(['2 perp_markets (drizzle)']);
    expect(found(`${imports}await tx\n  .insert(perpPricePoints)\n  .values(rows);`)).toEqual(['3 perp_price_points (drizzle)']);
    expect(found(`${imports}await db.delete(mk).where(x);`)).toEqual(['2 markets (drizzle)']);
    // Raw SQL: an interpolated table, a table's name (quoted or not, any case), several lines in.
    expect(found(`${imports}await tx.execute(sql\`\n  insert into \${perpPricePoints} (ticker) values ('X')\`);`)).toEqual(['3 perp_price_points (sql)']);
    expect(found("await db.execute(sql.raw('UPDATE \"perp_markets\" SET mark_price = 1'));", 'lib/admin/evil.ts')).toEqual(['1 perp_markets (sql)']);
    expect(found(`${imports}await tx.execute(sql\`update \${mk} m set yes_shares = 1 where m.id = \${id}\`);`)).toEqual(['2 markets (sql)']);
    expect(found(`${imports}await tx.execute(sql\`delete from \${worldEvents} where id = \${id}\`);`, 'lib/game/steps/news.ts')).toEqual(['2 world_events (sql)']);
    // world_events belongs to one file, not to its folder; a table nobody declared has no writer at all.
    expect(found("await tx.execute(sql`insert into world_events (id) values ('x')`);", 'lib/world/seed/world.ts')).toEqual(['1 world_events (sql)']);
    expect(found("await tx.execute(sql`insert into ${t} (id) values ('x')`);")).toEqual(['1 ?t (sql)']);
    // Not writes, or allowed: the owner, a declared exception, reads, locks, upserts' own update, comments, other objects.
    expect(found(`${imports}await tx.update(perpMarkets).set({ markPrice: '1' });`, 'lib/perps/service/marks.ts')).toEqual([]);
    expect(found(`${imports}await tx.insert(perpPricePoints).values(rows);`, 'lib/game/backfill/write.ts')).toEqual([]);
    expect(found(`${imports}await tx.insert(worldEvents).values(rows);`, 'lib/world/events.ts')).toEqual([]);
    expect(found(`${imports}await db.select().from(perpMarkets).for('update');`)).toEqual([]);
    expect(found(`${imports}await tx.execute(sql\`select * from \${perpMarkets} m order by m.ticker for update of m\`);`)).toEqual([]);
    expect(found(`${imports}await tx.execute(sql\`insert into \${worldEvents} (id) values ('x') on conflict (id) do update set id = excluded.id\`);`, 'lib/world/events.ts')).toEqual([]);
    expect(found(`${imports}await tx.execute(sql\`select 1 -- then update perp_markets set mark_price = 1\n\`);`)).toEqual([]);
    expect(found("// update perp_markets set mark_price = 1\nhash.update(token); cache.delete(key); set.insert(perpMarkets);")).toEqual([]);
    expect(found("throw new Error('Could not update your profile');")).toEqual([]);
  });
});
