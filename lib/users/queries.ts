/** Read queries for users. Reads only; callers pass the database or their transaction. */
import { and, asc, eq, ilike, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { accountTotals, comments, follows, marketPositions, perpPositions, postLikes, posts, socialLinks, users, type TUserRow } from '@/db/schema';
import { preparedQuery, type Db, type DbOrTx } from '@/db/client';
import { containsPattern, escapeLike } from '@/db/like';
import { canSeeUser } from '@/lib/moderation/visibility';
import { toNumber } from '@/lib/money/decimal';
import { toUserSummary, type TSocialHandles, type TUserStats } from './dto';

export async function findUserById(db: DbOrTx, id: string): Promise<TUserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

const userBySubject = (db: Db) =>
  db.select().from(users).where(eq(users.authSubject, sql.placeholder('subject'))).prepare('user_by_subject');

/** The user behind a token subject: runs on every authenticated request, so it is prepared. */
export async function findUserBySubject(db: Db, subject: string): Promise<TUserRow | undefined> {
  const [row] = await preparedQuery(db, 'user_by_subject', userBySubject).execute({ subject });
  return row;
}

export async function findUserByUsername(db: DbOrTx, username: string): Promise<TUserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`);
  return row;
}

/** A user by id, username or wallet address (the profile route accepts all three). */
export async function findUserByIdentifier(db: DbOrTx, ident: string): Promise<TUserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(
      or(
        eq(users.id, ident),
        sql`lower(${users.username}) = lower(${ident})`,
        // A wallet its owner hid does not lead to their profile.
        and(sql`lower(${users.walletAddress}) = lower(${ident})`, eq(users.showWalletPublic, true)),
      ),
    )
    .limit(3);
  // An exact id wins over a username that happens to look like someone's id.
  return rows.find((r) => r.id === ident) ?? rows.find((r) => r.username.toLowerCase() === ident.toLowerCase()) ?? rows[0];
}

export async function isUsernameTaken(db: DbOrTx, username: string, exceptUserId?: string) {
  const conds: SQL[] = [sql`lower(${users.username}) = lower(${username})`];
  if (exceptUserId) conds.push(sql`${users.id} <> ${exceptUserId}`);
  const [row] = await db.select({ id: users.id }).from(users).where(and(...conds)).limit(1);
  return Boolean(row);
}

/** The ledger types that count as a trade in a user's stats (ledger_type_classes.is_trade, migration 0034). */
export const TRADE_TYPES = ['pred_buy', 'pred_sell', 'perp_open', 'perp_close'] as const;

/**
 * A user's stats. Counts that later features feed (follows, posts, reactions) read zero until
 * their tables exist; each feature extends this one query rather than adding its own.
 * The columns of those counts for the user id `id` (a placeholder in the prepared statements:
 * this one, and GET /api/users/me's, which reads them with the account's numbers).
 */
export function statsCountFields(id: SQL | Placeholder) {
  return {
    referralCount: sql<number>`(select count(*)::int from ${users} r where r.referred_by_id = ${id})`,
    // The ledger's kept count of the account's trades (account_totals, migration 0034).
    tradesCount: sql<number>`coalesce((select t.trades::int from ${accountTotals} t where t.user_id = ${id}), 0)`,
    followers: sql<number>`(select count(*)::int from ${follows} f where f.following_id = ${id})`,
    following: sql<number>`(select count(*)::int from ${follows} f where f.follower_id = ${id})`,
    posts: sql<number>`(select count(*)::int from ${posts} p where p.author_id = ${id})`,
    comments: sql<number>`(select count(*)::int from ${comments} c where c.author_id = ${id} and c.deleted_at is null)`,
    reactions: sql<number>`(select count(*)::int from ${postLikes} l where l.user_id = ${id})`,
    positions: sql<number>`((select count(*)::int from ${marketPositions} mp where mp.user_id = ${id} and mp.shares > 0 and mp.settled_at is null)
      + (select count(*)::int from ${perpPositions} pp where pp.user_id = ${id} and pp.status = 'open'))`,
  };
}

type TStatsCounts = { [K in keyof ReturnType<typeof statsCountFields>]: number };

const statsCounts = (db: Db) =>
  db
    .select(statsCountFields(sql.placeholder('userId')))
    .from(sql`(select 1) as one`)
    .prepare('user_stats_counts');

/** The handles of a user's linked social accounts, by platform. */
export async function findSocialHandles(db: DbOrTx, userId: string): Promise<TSocialHandles> {
  const rows = await db.select({ platform: socialLinks.platform, username: socialLinks.username }).from(socialLinks).where(eq(socialLinks.userId, userId));
  return Object.fromEntries(rows.map((r) => [r.platform, r.username]));
}

export async function computeUserStats(db: Db, user: TUserRow): Promise<TUserStats> {
  const [row] = await preparedQuery(db, 'user_stats_counts', statsCounts).execute({ userId: user.id });
  return statsOfCounts(user, row);
}

/** A user's stats from their row and the counts of statsCountFields (all zero when `row` is missing). */
export function statsOfCounts(user: TUserRow, row: TStatsCounts | undefined): TUserStats {
  const tradesCount = Number(row?.tradesCount ?? 0);
  const referralCount = Number(row?.referralCount ?? 0);
  const followers = Number(row?.followers ?? 0);
  const following = Number(row?.following ?? 0);
  const postsCount = Number(row?.posts ?? 0);
  return {
    followersCount: followers,
    followingCount: following,
    postsCount,
    tradesCount,
    lifetimePnL: toNumber(user.lifetimePnL),
    winRate: 0,
    totalTrades: tradesCount,
    reputationPoints: user.reputationPoints,
    referralCount,
    followers,
    following,
    posts: postsCount,
    positions: Number(row?.positions ?? 0),
    comments: Number(row?.comments ?? 0),
    reactions: Number(row?.reactions ?? 0),
  };
}


/**
 * Users whose username or display name contains q, actors or players only when asked; never
 * someone in a block with `callerId` (lib/moderation/visibility canSeeUser), either way.
 */
export async function searchUsers(db: DbOrTx, opts: { q: string; limit: number; type?: 'user' | 'actor'; callerId: string | null }) {
  const pattern = containsPattern(opts.q);
  // Pool accounts are not people: they trade for their pool and are found through it.
  const conds: SQL[] = [eq(users.isBanned, false), eq(users.isPoolAccount, false), canSeeUser(sql`${users.id}`, opts.callerId)];
  if (opts.q) conds.push(or(ilike(users.username, pattern), ilike(users.displayName, pattern))!);
  if (opts.type) conds.push(eq(users.isActor, opts.type === 'actor'));
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      displayName: users.displayName,
      profileImageUrl: users.profileImageUrl,
      reputationPoints: users.reputationPoints,
      isActor: users.isActor,
    })
    .from(users)
    .where(and(...conds))
    // Exact and prefix matches first, then by reputation.
    .orderBy(
      sql`case when lower(${users.username}) = lower(${opts.q}) then 0 when ${users.username} ilike ${`${escapeLike(opts.q)}%`} then 1 else 2 end`,
      sql`${users.reputationPoints} desc`,
      asc(users.username),
    )
    .limit(opts.limit);
  return rows.map((u) => toUserSummary(u));
}
