/**
 * Reads behind a market page beyond the market itself: the rule it resolves by (with its
 * organization and actor), its top holders, the world news that bears on it, and the posts about
 * it. Reads only. People lists and posts go through lib/moderation/visibility (a block hides each
 * from the other; posts also honour mutes and bans), as every query that names people must.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { marketPositions, organizations, posts, questionRules, users, worldEvents, type TMarketRow } from '@/db/schema';
import { canSee, canSeeUser } from '@/lib/moderation/visibility';
import { dec, toNumber } from '@/lib/money/decimal';
import { userSummaryOfRow } from '@/lib/users/dto';
import type { TDescribableRule } from './describe';
import { marketPrices } from './dto';

type TRuleRow = {
  kind: 'price' | 'event';
  event_kind: string | null;
  comparison: 'above' | 'below' | null;
  threshold: string | null;
  org_id: string | null;
  org_name: string | null;
  org_ticker: string | null;
  org_sector: string | null;
  actor_name: string | null;
};

/** The question's rule in the shape describeMarket reads, or null (no rule, or one whose organization is gone). */
export async function findDescribableRule(db: DbOrTx, marketId: string): Promise<TDescribableRule | null> {
  const [r] = rowsOf<TRuleRow>(
    await db.execute(sql`
      select r.kind, r.event_kind, r.comparison, r.threshold::text as threshold,
        o.id as org_id, o.name as org_name, o.ticker as org_ticker, o.sector as org_sector,
        nullif(coalesce(nullif(u.display_name, ''), u.username), '') as actor_name
      from ${questionRules} r
        left join ${organizations} o on o.id = r.organization_id
        left join ${users} u on u.id = r.actor_id
      where r.market_id = ${marketId}`),
  );
  if (!r || !r.org_id) return null;
  const organization = { id: r.org_id, name: r.org_name ?? '', ticker: r.org_ticker ?? '', sector: r.org_sector ?? '' };
  if (r.kind === 'price' && r.comparison && r.threshold !== null) return { kind: 'price', organization, comparison: r.comparison, threshold: r.threshold };
  if (r.kind === 'event' && r.event_kind) return { kind: 'event', organization, eventKind: r.event_kind, actorName: r.actor_name };
  return null;
}

/** The topics and tickers questions are about (sorted), for a listing's filters. */
export async function findMarketFacets(db: DbOrTx) {
  const rows = rowsOf<{ sector: string; ticker: string }>(
    await db.execute(sql`
      select distinct o.sector, o.ticker
      from ${questionRules} r join ${organizations} o on o.id = r.organization_id`),
  );
  const topics = [...new Set(rows.map((r) => r.sector).filter(Boolean))].sort();
  const tickers = [...new Set(rows.map((r) => r.ticker))].sort();
  return { topics, tickers };
}

type THolderRow = {
  user_id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
  reputation_points: number | string;
  is_actor: boolean;
  side: 'YES' | 'NO';
  shares: string;
  cost_basis: string;
};

/**
 * The largest open positions on each side (shares > 0, unsettled), `limit` per side, with how many
 * holders each side has. Users have no setting that hides their positions (profiles show them);
 * a block between the caller and a holder leaves that holder out, as in every people list.
 */
export async function findTopHolders(db: DbOrTx, market: TMarketRow, callerId: string | null, limit: number) {
  const visible = sql`p.market_id = ${market.id} and p.shares > 0 and p.settled_at is null and ${canSeeUser(sql`p.user_id`, callerId)}`;
  const rows = rowsOf<THolderRow>(
    await db.execute(sql`
      select * from (
        select p.user_id, u.username, u.display_name, u.profile_image_url, u.reputation_points, u.is_actor,
          p.side, p.shares::text as shares, p.cost_basis::text as cost_basis,
          row_number() over (partition by p.side order by p.shares desc, p.user_id) as rank
        from ${marketPositions} p join ${users} u on u.id = p.user_id
        where ${visible}
      ) ranked
      where ranked.rank <= ${limit}
      order by ranked.shares::numeric desc, ranked.user_id`),
  );
  const counts = rowsOf<{ side: 'YES' | 'NO'; n: number | string }>(
    await db.execute(sql`select p.side, count(*) as n from ${marketPositions} p where ${visible} group by p.side`),
  );
  const price = marketPrices(market);
  const holders = rows.map((r) => {
    const shares = dec(r.shares);
    const current = r.side === 'YES' ? price.yes : price.no;
    return {
      user: userSummaryOfRow(r.user_id, r),
      side: r.side,
      outcome: r.side,
      shares: toNumber(shares),
      avgPrice: shares.gt(0) ? toNumber(dec(r.cost_basis).div(shares)) : 0,
      value: toNumber(shares.times(current)),
    };
  });
  const countOf = (side: 'YES' | 'NO') => Number(counts.find((c) => c.side === side)?.n ?? 0);
  return {
    holders,
    yes: holders.filter((h) => h.side === 'YES'),
    no: holders.filter((h) => h.side === 'NO'),
    yesHolderCount: countOf('YES'),
    noHolderCount: countOf('NO'),
  };
}

type TNewsRow = {
  id: string;
  kind: string;
  title: string;
  content: string;
  impact: string;
  created_at: string | Date;
  org_id: string | null;
  org_name: string | null;
  org_ticker: string | null;
};

/** World events whose related questions include this question's number, newest first. */
export async function findRelatedNews(db: DbOrTx, questionNumber: number, limit: number) {
  const rows = rowsOf<TNewsRow>(
    await db.execute(sql`
      select e.id, e.kind, e.title, e.content, e.impact::text as impact, e.created_at,
        o.id as org_id, o.name as org_name, o.ticker as org_ticker
      from ${worldEvents} e left join ${organizations} o on o.id = e.organization_id
      where ${questionNumber}::integer = any(e.related_questions)
      order by e.created_at desc, e.id desc
      limit ${limit}`),
  );
  return rows.map((r) => {
    const at = new Date(r.created_at).toISOString();
    return {
      id: r.id,
      kind: r.kind,
      title: r.title,
      content: r.content,
      impact: toNumber(r.impact),
      organization: r.org_id ? { id: r.org_id, name: r.org_name ?? '', ticker: r.org_ticker ?? '' } : null,
      createdAt: at,
      timestamp: at,
    };
  });
}

type TPostRow = {
  id: string;
  author_id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
  reputation_points: number | string;
  is_actor: boolean;
  content: string;
  comments_count: number | string;
  likes_count: number | string;
  created_at: string | Date;
};

/**
 * Posts whose relatedQuestion is this market, newest first, that the caller may see (blocks,
 * mutes, banned authors: lib/moderation/visibility), leaving out posts a moderator removed. A summary per post; the post itself and its
 * comment thread are the posts API's.
 */
export async function findMarketPosts(db: DbOrTx, marketId: string, callerId: string | null, limit: number) {
  const rows = rowsOf<TPostRow>(
    await db.execute(sql`
      select p.id, p.author_id, u.username, u.display_name, u.profile_image_url, u.reputation_points, u.is_actor,
        p.content, p.comments_count, p.likes_count, p.created_at
      from ${posts} p join ${users} u on u.id = p.author_id
      where p.related_question_id = ${marketId} and p.removed_at is null and ${canSee(sql`p.author_id`, callerId)}
      order by p.created_at desc, p.id desc
      limit ${limit}`),
  );
  return rows.map((r) => ({
    id: r.id,
    authorId: r.author_id,
    author: userSummaryOfRow(r.author_id, r),
    content: r.content,
    commentsCount: Number(r.comments_count),
    likesCount: Number(r.likes_count),
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
