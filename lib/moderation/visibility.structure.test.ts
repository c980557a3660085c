/**
 * Blocks and mutes hold everywhere only if no query forgets them. This test reads the source: every
 * non-test file under lib/ and app/ that selects FROM (or joins) posts, comments, notifications or
 * messages (chat messages, when they come) must import lib/moderation/visibility, the one module
 * that decides who sees whom. The few files that may select them without it are named below, each
 * with its reason; a writer that reaches another person must at least import lib/moderation/reach.
 *
 * The detector reads the code with comments removed (the TypeScript printer) and recognises both
 * forms the codebase uses: drizzle's `.from(posts)` / `.innerJoin(posts, …)` and raw SQL
 * `from ${posts}` / `join ${posts}` (and a table named in plain SQL text). A table reached through
 * a variable (`const table = posts; … from ${table}`) is beyond it: such a file should import the
 * module anyway, as lib/posts/service/toggle-like.ts does.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const VISIBILITY = path.join(root, 'lib', 'moderation', 'visibility.ts');
const REACH = path.join(root, 'lib', 'moderation', 'reach.ts');

/** Files that may select the guarded tables without the module, and why. */
const EXEMPT: Record<string, { reason: string; kind: 'writer' | 'other' }> = {
  'lib/game/world-figures.ts': {
    kind: 'other',
    reason: 'the world report reads the NPCs\' own posts to measure their words (npm run world-report and the 90-day test); nothing it reads reaches a player',
  },
  'lib/posts/service/share-post.ts': {
    kind: 'writer',
    reason: 'the share reads the post it shares (and its counter) inside its transaction; it reaches the author, so assertCanReach refuses a block first',
  },
  'lib/comments/service/add-comment.ts': {
    kind: 'writer',
    reason: 'the comment reads the post and parent it answers (and the NPC reply window); it reaches their authors, so assertCanReach refuses a block first',
  },
  'lib/comments/service/shared.ts': { kind: 'other', reason: "edit and delete read the caller's own comment: only its author passes" },
  'lib/world/service.ts': { kind: 'other', reason: "an actor's public stats count posts, comments and likes received: numbers that name nobody" },
  'lib/widgets/service/world.ts': { kind: 'other', reason: 'platform totals (posts today, all posts): numbers that name nobody' },
  'lib/game/npc/state.ts': {
    kind: 'other',
    reason: "the game's world-internal snapshot of recent posts for the NPCs to answer; what they then do goes through the services, which refuse a blocked reach",
  },
  'lib/reputation/inputs.ts': { kind: 'other', reason: "reputation counts the likes, comments and shares one's posts received: a number that names nobody" },
  'lib/points/service/npc-activity.ts': { kind: 'other', reason: "an NPC's daily points count the likes its posts received from players: a number that names nobody" },
  'lib/admin/service/stats.ts': { kind: 'other', reason: 'administrators see everything: system stats count all activity' },
  'lib/notifications/trading.ts': {
    kind: 'other',
    reason: "the trading alerts read only the holder's own earlier alerts (one price_move per market a day): a user's own notifications, naming nobody else",
  },
  'lib/admin/service/moderate-content.ts': {
    kind: 'other',
    reason: 'moderators remove and restore any post or comment, whoever they may see: the row is read under lock to act on it, and nothing read is shown to anyone',
  },
  'lib/moderation/service/reports.ts': {
    kind: 'other',
    reason: 'a report names a post whatever the reporter may still see of it: one reports what one has just blocked',
  },
};

const GUARDED = ['posts', 'comments', 'notifications', 'messages', 'chatMessages', 'chat_messages'];
const names = GUARDED.join('|');
const SELECTS = [
  // drizzle: .from(posts), .innerJoin(comments, …), .leftJoin(notifications, …)
  new RegExp(`\\.(?:from|innerJoin|leftJoin|rightJoin|fullJoin)\\(\\s*(${names})\\b`, 'g'),
  // raw SQL with the table interpolated: from ${posts} p, join ${comments} c
  new RegExp(`\\b(?:from|join)\\s+\\$\\{\\s*(${names})\\s*\\}`, 'gi'),
  // raw SQL with the table spelled out: from posts, join "notifications"
  new RegExp(`\\b(?:from|join)\\s+"?(${names})\\b"?`, 'gi'),
];

const printer = ts.createPrinter({ removeComments: true });

/** The guarded tables `source` selects from or joins, comments ignored (sorted, once each). */
const selectedTables = (source: string, fileName = 'sample.ts'): string[] => {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const code = printer.printFile(file);
  const found = new Set<string>();
  for (const re of SELECTS) for (const m of code.matchAll(re)) found.add(m[1]!.toLowerCase() === 'chatmessages' ? 'chat_messages' : m[1]!.toLowerCase());
  return [...found].sort();
};

/** The files `source` imports at run time (type-only imports do not count), resolved. */
const runtimeImports = (fileName: string, source: string): string[] => {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  for (const st of file.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const clause = st.importClause;
    const named = clause?.namedBindings;
    const typeOnly =
      !!clause && (clause.isTypeOnly || (!clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
    if (typeOnly) continue;
    const spec = st.moduleSpecifier.text;
    const base = spec.startsWith('@/') ? path.join(root, spec.slice(2)) : spec.startsWith('.') ? path.resolve(path.dirname(fileName), spec) : null;
    if (base) out.push(/\.tsx?$/.test(base) ? base : `${base}.ts`);
  }
  return out;
};

const imports = (fileName: string, source: string, target: string) => runtimeImports(fileName, source).includes(target);

const walk = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
        const p = path.join(dir, d.name);
        return d.isDirectory() ? walk(p) : [p];
      })
    : [];

const sourceFiles = () =>
  [...walk(path.join(root, 'lib')), ...walk(path.join(root, 'app'))].filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.d.ts'));

describe('the detector (the check itself)', () => {
  it('finds drizzle and raw SQL selects of the guarded tables, in any case, and nothing else', () => {
    expect(selectedTables('const [p] = await db.select().from(posts).where(eq(posts.id, id));')).toEqual(['posts']);
    expect(selectedTables('db.select().from(users).innerJoin(comments, eq(comments.authorId, users.id))')).toEqual(['comments']);
    expect(selectedTables('sql`select n.id from ${notifications} n left join ${users} a on a.id = n.actor_id`')).toEqual(['notifications']);
    expect(selectedTables('sql`select 1 FROM ${ posts } p JOIN ${comments} c on c.post_id = p.id`')).toEqual(['comments', 'posts']);
    expect(selectedTables('sql`select * from chat_messages where chat_id = ${id}`')).toEqual(['chat_messages']);
    expect(selectedTables('db.select().from(chatMessages)')).toEqual(['chat_messages']);
    expect(selectedTables('sql`select count(*) from "posts"`')).toEqual(['posts']);
  });

  it('ignores comments, writes and look-alike tables', () => {
    expect(selectedTables('// rows come .from(posts) here\n/* from ${comments} */ const x = 1;')).toEqual([]);
    expect(selectedTables('sql`update ${posts} set likes_count = likes_count + 1 where id = ${id}`')).toEqual([]);
    expect(selectedTables('await tx.insert(notifications).values(rows); await tx.delete(comments)')).toEqual([]);
    expect(selectedTables('db.select().from(postTags); sql`select 1 from ${postLikes} l`; db.select().from(postsArchive)')).toEqual([]);
  });

  it('flags a new file that selects posts without the module, and accepts it once it imports the module', () => {
    const file = path.join(root, 'lib', 'feature', 'service', 'new-feed.ts');
    const without = "import { sql } from 'drizzle-orm';\nimport { posts } from '@/db/schema';\nexport const q = () => sql`select * from ${posts} p`;\n";
    expect(selectedTables(without)).toEqual(['posts']);
    expect(imports(file, without, VISIBILITY)).toBe(false);
    const withAlias = `import { canSee } from '@/lib/moderation/visibility';\n${without}`;
    expect(imports(file, withAlias, VISIBILITY)).toBe(true);
    const relative = path.join(root, 'lib', 'moderation', 'service', 'x.ts');
    expect(imports(relative, "import { canSee } from '../visibility';", VISIBILITY)).toBe(true);
    // A type-only import calls nothing: it does not count.
    expect(imports(file, "import type { SQL } from '@/lib/moderation/visibility';", VISIBILITY)).toBe(false);
  });
});

describe('lib/moderation/visibility stays a leaf', () => {
  it('imports only drizzle and the schema, so any layer may use it without a cycle', () => {
    const src = fs.readFileSync(VISIBILITY, 'utf8');
    const specs = ts
      .createSourceFile(VISIBILITY, src, ts.ScriptTarget.Latest, true)
      .statements.filter(ts.isImportDeclaration)
      .map((st) => (st.moduleSpecifier as ts.StringLiteral).text);
    expect(specs.filter((s) => s !== 'drizzle-orm' && s !== '@/db/schema')).toEqual([]);
  });
});

describe('every query of posts, comments, notifications and messages goes through lib/moderation/visibility', () => {
  const files = sourceFiles();
  const selecting = files
    .map((f) => ({ f, rel: path.relative(root, f).split(path.sep).join('/'), src: fs.readFileSync(f, 'utf8') }))
    .map((x) => ({ ...x, tables: selectedTables(x.src, x.f) }))
    .filter((x) => x.tables.length > 0);

  it('finds the known readers (the scan itself works on the real tree)', () => {
    const rels = selecting.map((x) => x.rel);
    expect(rels).toEqual(expect.arrayContaining(['lib/posts/queries.ts', 'lib/comments/queries.ts', 'lib/notifications/service.ts']));
  });

  it('each file that selects them imports the module, or is exempt with a reason', () => {
    const offenders = selecting
      .filter((x) => x.f !== VISIBILITY && !EXEMPT[x.rel] && !imports(x.f, x.src, VISIBILITY))
      .map((x) => `${x.rel} selects ${x.tables.join(', ')} without lib/moderation/visibility`);
    expect(offenders).toEqual([]);
  });

  it('exempt writers check reach (lib/moderation/reach), and every exemption still applies', () => {
    for (const [rel, entry] of Object.entries(EXEMPT)) {
      const f = path.join(root, rel);
      expect(fs.existsSync(f), `${rel} is exempt but does not exist: remove the entry`).toBe(true);
      const src = fs.readFileSync(f, 'utf8');
      expect(selectedTables(src, f).length, `${rel} is exempt but selects no guarded table: remove the entry`).toBeGreaterThan(0);
      expect(imports(f, src, VISIBILITY), `${rel} imports the module: remove its exemption`).toBe(false);
      expect(entry.reason.length).toBeGreaterThan(20);
      if (entry.kind === 'writer') expect(imports(f, src, REACH), `${rel} reaches other people: it must check lib/moderation/reach`).toBe(true);
    }
  });
});
