/**
 * User management's list (GET /api/admin/users): search by username or display name, a filter,
 * a sort, and per user the balance, lifetime PnL, trade count and reports, in two statements per
 * page (the page and its total). Pool accounts are left out: they are a pool's books, managed
 * through lib/pools, never a person to ban or promote. Reads only.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { containsPattern } from '@/db/like';
import { perpTrades, reports, trades, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { readAccountNumbersMany } from '@/lib/equity/service';
import { contributionsSql, equitySql } from '@/lib/equity/sql';
import { env } from '@/lib/env';
import { toDecimalString } from '@/lib/money/decimal';
import { roleOf, type TAdminUsersQuery } from '../dto';

/** LIKE's wildcards and escape character, escaped, so a search matches them literally. */

// Per-user counts as correlated subqueries on indexed columns (trades_user_created_idx,
// perp_trades_user_created_idx, reports_reported_user_idx): computed only for the rows a sort needs.
const tradeCount = sql`((select count(*) from ${trades} t where t.user_id = u.id) + (select count(*) from ${perpTrades} pt where pt.user_id = u.id))`;
const reportCount = sql`(select count(*) from ${reports} r where r.reported_user_id = u.id)`;
const openReportCount = sql`(select count(*) from ${reports} r where r.reported_user_id = u.id and r.status in ('pending', 'reviewing'))`;

const adminSubjectsList = () => {
  const subjects = [...env().adminSubjects];
  return subjects.length ? sql.join(subjects.map((s) => sql`${s}`), sql`, `) : null;
};

const filterOf = (filter: TAdminUsersQuery['filter']): SQL => {
  switch (filter) {
    case 'players':
      return sql`not u.is_actor and not u.is_agent`;
    case 'actors':
      return sql`u.is_actor`;
    case 'agents':
      return sql`u.is_agent`;
    case 'banned':
      return sql`u.is_banned`;
    case 'staff': {
      const subjects = adminSubjectsList();
      return subjects ? sql`(u.is_admin or u.is_moderator or u.auth_subject in (${subjects}))` : sql`(u.is_admin or u.is_moderator)`;
    }
    case 'reported':
      return sql`exists (select 1 from ${reports} r where r.reported_user_id = u.id and r.status in ('pending', 'reviewing'))`;
    default:
      return sql`true`;
  }
};

const sortKeyOf = (sortBy: TAdminUsersQuery['sortBy']): SQL => {
  switch (sortBy) {
    case 'balance':
      return sql`u.virtual_balance`;
    case 'pnl':
      // The one P&L (lib/equity), computed per account: an administrator's sort, not a hot path.
      return sql`(${equitySql('u')} - ${contributionsSql('u')})`;
    case 'trades':
      return tradeCount;
    case 'reports':
      return reportCount;
    case 'username':
      // Byte order: the same on every database, whatever its default collation.
      return sql`lower(u.username) collate "C"`;
    default:
      return sql`u.created_at`;
  }
};

type TRow = {
  id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
  auth_subject: string | null;
  is_admin: boolean;
  is_moderator: boolean;
  is_actor: boolean;
  is_agent: boolean;
  is_banned: boolean;
  virtual_balance: string;
  lifetime_pnl: string;
  trade_count: number | string;
  report_count: number | string;
  open_report_count: number | string;
  created_at: Date | string;
};

export async function listUsers(input: { caller: TCaller; query: TAdminUsersQuery }) {
  const { query } = input;
  const db = await getDb();
  const conds: SQL[] = [sql`not u.is_pool_account`, filterOf(query.filter)];
  if (query.search) {
    const pattern = containsPattern(query.search);
    conds.push(sql`(u.username ilike ${pattern} escape '\\' or u.display_name ilike ${pattern} escape '\\')`);
  }
  const where = sql.join(conds, sql` and `);
  const dir = sql.raw(query.sortOrder === 'asc' ? 'asc' : 'desc');
  const rows = rowsOf<TRow>(
    await db.execute(sql`
      select u.id, u.username, u.display_name, u.profile_image_url, u.auth_subject, u.is_admin, u.is_moderator,
        u.is_actor, u.is_agent, u.is_banned, u.virtual_balance, u.lifetime_pnl, u.created_at,
        ${tradeCount} as trade_count, ${reportCount} as report_count, ${openReportCount} as open_report_count
      from ${users} u
      where ${where}
      order by ${sortKeyOf(query.sortBy)} ${dir}, u.created_at ${dir}, u.id ${dir}
      limit ${query.limit} offset ${query.offset}`),
  );
  const [t] = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*) as n from ${users} u where ${where}`));
  const subjects = env().adminSubjects;
  const numbers = await readAccountNumbersMany(rows.map((r) => r.id));
  return {
    users: rows.map((r) => ({
      id: r.id,
      username: r.username,
      displayName: r.display_name,
      profileImageUrl: r.profile_image_url,
      role: roleOf({ isAdmin: r.is_admin, isModerator: r.is_moderator, authSubject: r.auth_subject }, subjects),
      isActor: r.is_actor,
      isAgent: r.is_agent,
      isBanned: r.is_banned,
      balance: toDecimalString(r.virtual_balance),
      lifetimePnL: numbers.get(r.id)?.pnl ?? toDecimalString(r.lifetime_pnl),
      equity: numbers.get(r.id)?.equity ?? toDecimalString(r.virtual_balance),
      tradeCount: Number(r.trade_count),
      reportCount: Number(r.report_count),
      openReportCount: Number(r.open_report_count),
      createdAt: new Date(r.created_at).toISOString(),
    })),
    pagination: { limit: query.limit, offset: query.offset, total: Number(t?.n ?? 0) },
  };
}
