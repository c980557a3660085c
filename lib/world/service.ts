/**
 * Read side of the game world: organizations with their 24 h change, the shipped game assets,
 * and an NPC actor's statistics. Reads only; each answer is one or two set-based statements.
 */
import 'server-only';
import { asc, eq, sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { actors, comments, follows, marketPositions, organizations, perpPositions, perpPricePoints, perpTrades, posts, trades, users } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { readAccountNumbers } from '@/lib/equity/service';
import { AppError } from '@/lib/errors/app-error';
import { dec, toDecimalString, toNumber } from '@/lib/money/decimal';
import { findUserByIdentifier } from '@/lib/users/queries';
import { actorAvatarUrl, organizationLogoUrl } from './assets';

const DAY_MS = 86_400_000;

/** Change and percent change, rounded for display (prices themselves stay exact strings in the DB). */
const changeOf = (current: string, past: string | null) => {
  if (past === null || dec(past).isZero()) return { change24h: 0, changePercent24h: 0 };
  const diff = dec(current).minus(past);
  return { change24h: diff.toDecimalPlaces(8).toNumber(), changePercent24h: diff.div(past).times(100).toDecimalPlaces(4).toNumber() };
};

/** GET /api/organizations: every organization, its prices, 24 h change (from index price points) and logo. */
export async function listOrganizations() {
  const db = await getDb();
  const since = sql`${new Date(now().getTime() - DAY_MS).toISOString()}::timestamptz`;
  // The index price is the organization's price, so its price points give the 24 h reference:
  // the newest point at least a day old, else the oldest one (a world younger than a day).
  const rows = rowsOf<{ id: string; name: string; ticker: string; description: string; sector: string; initial_price: string; current_price: string; past: string | null }>(
    await db.execute(sql`
      select o.id, o.name, o.ticker, o.description, o.sector, o.initial_price, o.current_price,
        coalesce(
          (select pp.index_price from ${perpPricePoints} pp where pp.ticker = o.ticker and pp.created_at <= ${since} order by pp.created_at desc limit 1),
          (select pp.index_price from ${perpPricePoints} pp where pp.ticker = o.ticker order by pp.created_at asc limit 1),
          o.initial_price) as past
      from ${organizations} o
      order by o.ticker`),
  );
  const list = rows.map((r) => ({
    id: r.id,
    ticker: r.ticker,
    name: r.name,
    description: r.description,
    sector: r.sector,
    initialPrice: toNumber(r.initial_price),
    currentPrice: toNumber(r.current_price),
    ...changeOf(String(r.current_price), r.past === null ? null : String(r.past)),
    logoUrl: organizationLogoUrl(r.ticker),
  }));
  return { organizations: list, count: list.length };
}

/** GET /api/game-assets: the shipped avatar of every actor and logo of every organization. */
export async function listGameAssets() {
  const db = await getDb();
  const actorRows = await db
    .select({ id: users.id, username: users.username, displayName: users.displayName })
    .from(actors)
    .innerJoin(users, eq(users.id, actors.userId))
    .orderBy(asc(users.username));
  const orgRows = await db
    .select({ id: organizations.id, ticker: organizations.ticker, name: organizations.name })
    .from(organizations)
    .orderBy(asc(organizations.ticker));
  return {
    actors: actorRows.map((a) => ({ ...a, avatarUrl: actorAvatarUrl(a.username) })),
    organizations: orgRows.map((o) => ({ ...o, logoUrl: organizationLogoUrl(o.ticker) })),
  };
}

type TActorStatsRow = {
  posts: number | string;
  comments: number | string;
  likes_received: number | string;
  followers: number | string;
  following: number | string;
  prediction_trades: number | string;
  perp_trades: number | string;
  open_predictions: number | string;
  open_perps: number | string;
};

/** GET /api/actors/{actorId}/stats: by user id or username; 404 unless it names an NPC actor. */
export async function getActorStats(ident: string) {
  const db = await getDb();
  const user = await findUserByIdentifier(db, ident);
  const [actor] = user
    ? await db
        .select({ tier: actors.tier, role: actors.role, orgId: organizations.id, orgTicker: organizations.ticker, orgName: organizations.name })
        .from(actors)
        .leftJoin(organizations, eq(organizations.id, actors.organizationId))
        .where(eq(actors.userId, user.id))
    : [];
  if (!user || !actor) throw new AppError('NOT_FOUND', 'Actor not found', { actorId: ident });
  const id = user.id;
  const [row] = rowsOf<TActorStatsRow>(
    await db.execute(sql`
      select
        (select count(*) from ${posts} p where p.author_id = ${id}) as posts,
        (select count(*) from ${comments} c where c.author_id = ${id} and c.deleted_at is null) as comments,
        (select coalesce(sum(p.likes_count), 0) from ${posts} p where p.author_id = ${id})
          + (select coalesce(sum(c.likes_count), 0) from ${comments} c where c.author_id = ${id}) as likes_received,
        (select count(*) from ${follows} f where f.following_id = ${id}) as followers,
        (select count(*) from ${follows} f where f.follower_id = ${id}) as following,
        (select count(*) from ${trades} t where t.user_id = ${id}) as prediction_trades,
        (select count(*) from ${perpTrades} t where t.user_id = ${id}) as perp_trades,
        (select count(*) from ${marketPositions} mp where mp.user_id = ${id} and mp.shares > 0 and mp.settled_at is null) as open_predictions,
        (select count(*) from ${perpPositions} pp where pp.user_id = ${id} and pp.status = 'open') as open_perps`),
  );
  const n = (v: number | string | undefined) => Number(v ?? 0);
  // P&L by the one definition (lib/equity): equity − contributions; unrealized over every product.
  const account = await readAccountNumbers(id, db);
  const predictionTrades = n(row?.prediction_trades);
  const perpTradesCount = n(row?.perp_trades);
  return {
    actor: {
      id,
      username: user.username,
      displayName: user.displayName,
      bio: user.bio,
      avatarUrl: actorAvatarUrl(user.username),
      profileImageUrl: user.profileImageUrl,
      tier: actor.tier,
      role: actor.role,
      organization: actor.orgId ? { id: actor.orgId, ticker: actor.orgTicker!, name: actor.orgName! } : null,
    },
    stats: {
      posts: n(row?.posts),
      comments: n(row?.comments),
      likesReceived: n(row?.likes_received),
      followers: n(row?.followers),
      following: n(row?.following),
      trades: predictionTrades + perpTradesCount,
      predictionTrades,
      perpTrades: perpTradesCount,
      openPositions: n(row?.open_predictions) + n(row?.open_perps),
      balance: toDecimalString(user.virtualBalance),
      totalDeposited: toDecimalString(user.totalDeposited),
      lifetimePnL: account?.pnl ?? toDecimalString(user.lifetimePnL),
      unrealizedPnL: toNumber(account?.unrealizedPnL ?? 0),
      equity: account?.equity ?? toDecimalString(user.virtualBalance),
      reputationPoints: user.reputationPoints,
    },
  };
}
