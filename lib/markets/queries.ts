/** Read side of prediction markets: listings, history, positions, trades, biases. Reads only. */
import { and, asc, count, desc, eq, getTableColumns, gt, gte, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { preparedQuery, rawRows, rowsOf, tableRowDecoder, type Db, type DbOrTx } from '@/db/client';
import { marketBiases, marketPositions, marketPricePoints, markets, organizations, questionRules, trades, users, type TMarketPositionRow, type TMarketRow } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { dec, toNumber } from '@/lib/money/decimal';
import { toUserSummary } from '@/lib/users/dto';
import { toMarketDto, toPositionDto } from './dto';
import { findMarketFacets } from './page-queries';
import { marketYesPriceSql, volume24hSql } from './sql';

const DAY_MS = 86_400_000;

/** The market's YES price 24 h before `since`: the newest point at or before then, else its first point. */
const yesPrice24hAgoSql = (since: SQL, marketId: SQL) => sql<string | null>`coalesce(
        (select p.yes_price from ${marketPricePoints} p where p.market_id = ${marketId} and p.created_at <= ${since} order by p.created_at desc limit 1),
        (select p.yes_price from ${marketPricePoints} p where p.market_id = ${marketId} order by p.created_at asc limit 1))`;

/** The YES price now, as marketPrices computes it (the list's `markets`, unaliased). */
const yesPriceNowSql = marketYesPriceSql('markets');

// Raw SQL parameters are not typed by a column: send the time as ISO text with a cast.
const sinceSql = (sinceDate: Date) => sql`${sinceDate.toISOString()}::timestamptz`;
// Qualified on purpose: drizzle prints a lone column unqualified, which inside these
// subqueries would bind to the subquery's own "id".
const MARKET_ID = sql.raw('"markets"."id"');
const marketColumns = getTableColumns(markets);

/** Market columns plus 24 h volume and the YES price 24 h ago, in one statement. */
const withExtras = (db: DbOrTx, sinceDate: Date) => {
  const since = sinceSql(sinceDate);
  return db
    .select({
      market: markets,
      volume24h: volume24hSql(since, MARKET_ID),
      yesPrice24hAgo: yesPrice24hAgoSql(since, MARKET_ID),
    })
    .from(markets);
};

export async function getMarketRowOrThrow(db: DbOrTx, id: string): Promise<TMarketRow> {
  const [m] = await db.select().from(markets).where(eq(markets.id, id));
  if (!m) throw new AppError('NOT_FOUND', 'Market not found', { marketId: id });
  return m;
}

export type TMarketSort = 'newest' | 'volume' | 'closing' | 'movers';
export type TMarketListOptions = {
  status: 'active' | 'resolved' | 'all';
  page: number;
  limit: number;
  userId?: string;
  /** Words the question text contains, case-insensitive. */
  q?: string;
  sort?: TMarketSort;
  /** The sector of the organization the question's rule is about. */
  topic?: string;
  /** The ticker of that organization (upper case). */
  ticker?: string;
};

/** `like` pattern of a literal text: %, _ and \ match themselves. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const listFilters = (opts: TMarketListOptions): SQL | undefined => {
  const conds: SQL[] = [];
  if (opts.status !== 'all') conds.push(eq(markets.status, opts.status));
  if (opts.q) for (const word of opts.q.split(/\s+/).filter(Boolean).slice(0, 8)) conds.push(sql`${markets.text} ilike ${containsPattern(word)}`);
  const rule = (cond: SQL) =>
    sql`exists (select 1 from ${questionRules} r join ${organizations} o on o.id = r.organization_id where r.market_id = ${markets.id} and ${cond})`;
  if (opts.topic) conds.push(rule(sql`o.sector = ${opts.topic}`));
  if (opts.ticker) conds.push(rule(sql`o.ticker = ${opts.ticker}`));
  return conds.length ? and(...conds) : undefined;
};

const listOrder = (sort: TMarketSort, since: SQL): SQL[] => {
  const tie = [desc(markets.createdAt), desc(markets.questionNumber)];
  switch (sort) {
    case 'volume':
      return [desc(markets.volume), ...tie];
    case 'closing':
      // Open questions first, soonest date first; resolved ones after, most recently resolved first.
      return [sql`(${markets.status} = 'resolved')`, asc(markets.resolutionDate), desc(markets.resolvedAt), ...tie];
    case 'movers':
      return [sql`abs(${yesPriceNowSql} - coalesce(${yesPrice24hAgoSql(since, MARKET_ID)}, ${yesPriceNowSql})) desc nulls last`, ...tie];
    case 'newest':
      return tie;
  }
};

/** The filters' choices as one text value: the distinct (topic, ticker) pairs of the questions' rules, as JSON. */
const facetPairsSql = sql<string>`(select coalesce(json_agg(json_build_array(fo.sector, fo.ticker)), '[]')::text
      from (select distinct o.sector, o.ticker from ${questionRules} r join ${organizations} o on o.id = r.organization_id) fo)`;

/** Topics and tickers (each distinct, sorted) of those pairs, as findMarketFacets answers them. */
const facetsOfPairs = (pairs: readonly (readonly [string, string])[]) => ({
  topics: [...new Set(pairs.map(([sector]) => sector).filter(Boolean))].sort(),
  tickers: [...new Set(pairs.map(([, ticker]) => ticker))].sort(),
});

/**
 * The caller's open position in the question (the larger side when they hold both; none for an
 * anonymous caller, whose id is null) as one JSON array of text: numerics as their exact text.
 */
const heldSql = (userId: SQL) => sql<string | null>`(select json_build_array(mp.id, mp.side, mp.shares::text, mp.cost_basis::text,
        mp.realized_pnl::text, mp.payout::text, mp.settled_at, mp.created_at, mp.updated_at)::text
      from ${marketPositions} mp where mp.user_id = ${userId} and mp.market_id = ${MARKET_ID} and mp.shares > 0
      order by mp.shares desc limit 1)`;

type THeld = [string, 'YES' | 'NO', string, string, string, string | null, string | null, string, string];

/** The position row heldSql describes, as drizzle reads market_positions. */
const heldRow = (held: string, userId: string, marketId: string): TMarketPositionRow => {
  const [id, side, shares, costBasis, realizedPnL, payout, settledAt, createdAt, updatedAt] = JSON.parse(held) as THeld;
  return {
    id,
    userId,
    marketId,
    side,
    shares,
    costBasis,
    realizedPnL,
    payout,
    settledAt: settledAt === null ? null : new Date(settledAt),
    createdAt: new Date(createdAt),
    updatedAt: new Date(updatedAt),
  };
};

/**
 * A row of listPage as the driver answers it (read raw: drizzle's result mapper costs more than
 * the rest of the page's work): the market's columns by their database names, decoded by
 * marketOfRaw, and the page's own columns by their aliases.
 */
type TListRaw = Record<string, unknown> & {
  volume_24h: string;
  yes_price_24h_ago: string | null;
  topic: string | null;
  ticker: string | null;
  total: string | number;
  facets: string;
  held: string | null;
};
const marketOfRaw = tableRowDecoder(markets);

/**
 * One statement for a page. The page's rows are chosen first, by a subquery named "markets" (the
 * filters, the order, LIMIT and OFFSET, and how many questions pass the filters: a window over the
 * filtered rows, taken before LIMIT); the outer query adds, for those rows only, their 24 h
 * numbers, the question's topic and ticker (a rule per question at most), the caller's position
 * and the filters' choices (an uncorrelated subquery: PostgreSQL runs it once). So a later page
 * does not compute the numbers of the rows it skips, and the statement's cost does not depend on
 * its OFFSET, which lets PostgreSQL keep one generic plan for the prepared listing instead of
 * planning it again on every call (docs/SCALING.md "The markets list").
 */
const listPage = (
  db: DbOrTx,
  since: SQL,
  where: SQL | undefined,
  order: SQL[],
  limit: number | Placeholder,
  offset: number | Placeholder,
  userId: SQL,
) => {
  // The subquery is named "markets", so the order, MARKET_ID and the SQL twins of lib/markets/sql.ts
  // read the page's rows outside it as they read the table inside it.
  const page = db
    .select({ ...marketColumns, total: sql<string>`count(*) over ()`.as('total') })
    .from(markets)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset)
    .as('markets');
  const pageMarket = Object.fromEntries(Object.keys(marketColumns).map((k) => [k, page[k as keyof typeof marketColumns]])) as typeof marketColumns;
  return db
    .select({
      market: pageMarket,
      volume24h: volume24hSql(since, MARKET_ID).as('volume_24h'),
      yesPrice24hAgo: yesPrice24hAgoSql(since, MARKET_ID).as('yes_price_24h_ago'),
      topic: sql<string | null>`${organizations.sector}`.as('topic'),
      ticker: sql<string | null>`${organizations.ticker}`.as('ticker'),
      total: page.total,
      facets: facetPairsSql.as('facets'),
      held: heldSql(userId).as('held'),
    })
    .from(page)
    .leftJoin(questionRules, eq(questionRules.marketId, page.id))
    .leftJoin(organizations, eq(organizations.id, questionRules.organizationId))
    .orderBy(...order);
};

/**
 * The pages of the plain listing (a status or all, a sort, no words, topic or ticker: what the
 * markets page and most API callers ask), prepared once per database handle so that drizzle does
 * not build their SQL on every request.
 */
const preparedPage = (db: Db, status: 'active' | 'resolved' | 'all', sort: TMarketSort) =>
  preparedQuery(db, `markets_page_${status === 'all' ? 'all' : 'status'}_${sort}`, (d) => {
    const since = sql`${sql.placeholder('since')}::timestamptz`;
    const where = status === 'all' ? undefined : eq(markets.status, sql.placeholder('status'));
    const userId = sql`${sql.placeholder('userId')}::text`;
    return listPage(d, since, where, listOrder(sort, since), sql.placeholder('limit'), sql.placeholder('offset'), userId).prepare(
      `markets_page_${status === 'all' ? 'all' : 'status'}_${sort}`,
    );
  });

/** A page of questions with the filters' total and choices: one statement (two more only for a page past the end). */
export async function findMarkets(db: DbOrTx, opts: TMarketListOptions) {
  const since = new Date(now().getTime() - DAY_MS);
  const sort = opts.sort ?? 'newest';
  const offset = (opts.page - 1) * opts.limit;
  const plain = !opts.q && !opts.topic && !opts.ticker;
  const where = listFilters(opts);
  const userId = opts.userId ?? null;
  const rows = (
    plain
      ? await rawRows(preparedPage(db as Db, opts.status, sort), { since: since.toISOString(), status: opts.status, limit: opts.limit, offset, userId })
      : rowsOf(await db.execute(listPage(db, sinceSql(since), where, listOrder(sort, sinceSql(since)), opts.limit, offset, sql`${userId}::text`)))
  ) as TListRaw[];
  let total: number;
  let facets: { topics: string[]; tickers: string[] };
  if (rows.length > 0) {
    total = Number(rows[0]!.total);
    facets = facetsOfPairs(JSON.parse(rows[0]!.facets) as [string, string][]);
  } else {
    // No row carries the window or the choices: a page past the end, or nothing passes the filters.
    const [[counted], choices] = await Promise.all([db.select({ total: count() }).from(markets).where(where), findMarketFacets(db)]);
    total = Number(counted!.total);
    facets = choices;
  }
  // Each question's DTO gains its topic, ticker and (for a signed-in caller) position in place.
  const questions = rows.map((r) => {
    const market = marketOfRaw(r);
    return Object.assign(toMarketDto(market, { volume24h: r.volume_24h, yesPrice24hAgo: r.yes_price_24h_ago }), {
      topic: r.topic || null,
      ticker: r.ticker ?? null,
      ...(userId ? { userPosition: r.held === null ? null : toPositionDto(heldRow(r.held, userId, market.id), market) } : {}),
    });
  });
  return { questions, total, facets };
}

export async function findMarket(db: DbOrTx, id: string) {
  return (await findMarketWithRow(db, id)).dto;
}

/** One market's API shape and its row (the detail page describes the row). */
export async function findMarketWithRow(db: DbOrTx, id: string) {
  const since = new Date(now().getTime() - DAY_MS);
  const [row] = await withExtras(db, since).where(eq(markets.id, id));
  if (!row) throw new AppError('NOT_FOUND', 'Market not found', { marketId: id });
  return { row: row.market, dto: toMarketDto(row.market, { volume24h: row.volume24h, yesPrice24hAgo: row.yesPrice24hAgo }) };
}

export const HISTORY_RANGES = { '1h': 3_600_000, '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS, all: null } as const;
export type THistoryRange = keyof typeof HISTORY_RANGES;
const MAX_POINTS = 300;

/** Price points in a range, oldest first, thinned evenly to at most 300 (the last one always kept). */
export async function findPriceHistory(db: DbOrTx, marketId: string, range: THistoryRange) {
  await getMarketRowOrThrow(db, marketId);
  const span = HISTORY_RANGES[range];
  const conds = [eq(marketPricePoints.marketId, marketId)];
  if (span) conds.push(gte(marketPricePoints.createdAt, new Date(now().getTime() - span)));
  const rows = await db.select().from(marketPricePoints).where(and(...conds)).orderBy(asc(marketPricePoints.createdAt));
  const step = Math.ceil(rows.length / MAX_POINTS) || 1;
  const kept = rows.filter((_, i) => i % step === 0 || i === rows.length - 1);
  return kept.map((p) => {
    const yes = dec(p.yesPrice);
    return {
      timestamp: p.createdAt.toISOString(),
      time: Math.floor(p.createdAt.getTime() / 1000),
      yesPrice: toNumber(yes),
      noPrice: toNumber(dec(1).minus(yes)),
      yesShares: toNumber(p.yesShares),
      noShares: toNumber(p.noShares),
      source: p.source,
    };
  });
}

export async function findActiveBiases(db: DbOrTx) {
  const rows = await db
    .select({ bias: marketBiases, question: markets.text })
    .from(marketBiases)
    .innerJoin(markets, eq(markets.id, marketBiases.marketId))
    .where(gt(marketBiases.expiresAt, now()))
    .orderBy(desc(marketBiases.createdAt));
  return rows.map(({ bias, question }) => ({
    id: bias.id,
    marketId: bias.marketId,
    question,
    direction: bias.direction,
    adjustment: toNumber(bias.adjustment),
    sentimentAdjustment: toNumber(bias.adjustment),
    priceImpact: toNumber(bias.priceImpact),
    decayRate: toNumber(bias.decayRate),
    reason: bias.reason,
    expiresAt: bias.expiresAt.toISOString(),
    expiration: bias.expiresAt.toISOString(),
    createdAt: bias.createdAt.toISOString(),
  }));
}

/** The most traded active markets of the last 24 h, with their price change. */
export async function findTopMarkets(db: DbOrTx, limit: number) {
  const since = new Date(now().getTime() - DAY_MS);
  const rows = await withExtras(db, since).where(eq(markets.status, 'active'));
  return rows
    .map((r) => toMarketDto(r.market, { volume24h: r.volume24h, yesPrice24hAgo: r.yesPrice24hAgo }))
    .sort((a, b) => b.volume24h - a.volume24h || b.volume - a.volume || b.liquidity - a.liquidity)
    .slice(0, limit);
}

/** A user's prediction positions (open ones first), with totals. */
export async function findUserPredictionPositions(db: DbOrTx, userId: string) {
  const rows = await db
    .select({ position: marketPositions, market: markets })
    .from(marketPositions)
    .innerJoin(markets, eq(markets.id, marketPositions.marketId))
    .where(and(eq(marketPositions.userId, userId), gt(marketPositions.shares, '0')))
    .orderBy(desc(marketPositions.updatedAt));
  const predictions = rows.map((r) => toPositionDto(r.position, r.market)).filter((p) => p.status === 'open');
  const totalValue = predictions.reduce((acc, p) => acc.plus(p.value), dec(0));
  const totalUnrealizedPnL = predictions.reduce((acc, p) => acc.plus(p.unrealizedPnL), dec(0));
  return { predictions, totalValue: toNumber(totalValue), totalUnrealizedPnL: toNumber(totalUnrealizedPnL) };
}

export async function findTrades(db: DbOrTx, opts: { limit: number; offset: number; userId?: string; marketId?: string }) {
  const conds: SQL[] = [];
  if (opts.userId) conds.push(eq(trades.userId, opts.userId));
  if (opts.marketId) conds.push(eq(trades.marketId, opts.marketId));
  const where = conds.length ? and(...conds) : undefined;
  const rows = await db
    .select({ trade: trades, question: markets.text, username: users.username, displayName: users.displayName, profileImageUrl: users.profileImageUrl })
    .from(trades)
    .innerJoin(markets, eq(markets.id, trades.marketId))
    .innerJoin(users, eq(users.id, trades.userId))
    .where(where)
    .orderBy(desc(trades.createdAt), desc(trades.id))
    .limit(opts.limit)
    .offset(opts.offset);
  const [{ total }] = (await db.select({ total: count() }).from(trades).where(where)) as [{ total: number }];
  return {
    total: Number(total),
    trades: rows.map(({ trade: t, ...r }) => ({
      id: t.id,
      type: 'prediction' as const,
      action: t.action,
      userId: t.userId,
      user: toUserSummary({ id: t.userId, username: r.username, displayName: r.displayName, profileImageUrl: r.profileImageUrl }, { nameOnly: true }),
      marketId: t.marketId,
      question: r.question,
      positionId: t.positionId,
      side: t.side,
      outcome: t.side,
      amount: toNumber(t.amount),
      shares: toNumber(t.shares),
      price: toNumber(t.price),
      fee: toNumber(t.feeTotal),
      yesPriceAfter: toNumber(t.yesPriceAfter),
      orderId: t.orderId,
      createdAt: t.createdAt.toISOString(),
      timestamp: t.createdAt.toISOString(),
    })),
  };
}
