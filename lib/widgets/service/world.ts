/**
 * The feed widgets the living world (lib/game) feeds: breaking news (the newest world events),
 * upcoming events (questions resolving soonest and the next funding time) and platform figures.
 * Reads only. The markets widget is lib/markets' listTopMarkets.
 */
import 'server-only';
import { desc, sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { markets, perpPositions, posts, trades, users, worldEvents } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { toNumber } from '@/lib/money/decimal';
import { FUNDING_PERIOD_MS, fundingPeriodStart } from '@/lib/perps/math';

const BREAKING_NEWS_LIMIT = 10;
const UPCOMING_LIMIT = 5;

/** GET /api/feed/widgets/breaking-news: the same fields as the `breaking_news` event. */
export async function listBreakingNews() {
  const db = await getDb();
  const rows = await db.select().from(worldEvents).orderBy(desc(worldEvents.createdAt), desc(worldEvents.id)).limit(BREAKING_NEWS_LIMIT);
  return {
    news: rows.map((e) => ({
      id: e.id,
      title: e.title,
      content: e.content,
      relatedQuestions: e.relatedQuestions,
      timestamp: e.createdAt.toISOString(),
    })),
  };
}

/** GET /api/feed/widgets/stats: real totals (players, not NPC actors, count as users). */
export async function getPlatformStats() {
  const at = now();
  const day = new Date(at.getTime() - 86_400_000).toISOString();
  const [r] = rowsOf<Record<string, number | string | null>>(
    await (await getDb()).execute(sql`select
      (select count(*) from ${users} where is_actor = false and is_pool_account = false) as total_users,
      (select count(*) from ${posts}) as total_posts,
      (select count(*) from ${posts} where created_at > ${day}::timestamptz) as posts_today,
      (select count(*) from ${markets} where status = 'active') as active_markets,
      (select coalesce(sum(amount), 0) from ${trades} where created_at > ${day}::timestamptz) as volume_24h,
      (select count(*) from ${perpPositions} where status = 'open') as open_perps`),
  );
  return {
    stats: {
      totalUsers: Number(r!.total_users),
      totalPosts: Number(r!.total_posts),
      postsToday: Number(r!.posts_today),
      activeMarkets: Number(r!.active_markets),
      volume24h: toNumber(String(r!.volume_24h ?? 0)),
      openPerpPositions: Number(r!.open_perps),
    },
  };
}

/** GET /api/feed/widgets/upcoming-events: the questions resolving soonest, and the next funding. */
export async function listUpcomingEvents() {
  const at = now();
  const rows = rowsOf<{ id: string; text: string; resolution_date: string | Date }>(
    await (await getDb()).execute(sql`
      select id, text, resolution_date from ${markets}
      where status = 'active' and resolution_date > ${at.toISOString()}::timestamptz
      order by resolution_date asc, question_number asc limit ${UPCOMING_LIMIT}`),
  );
  const nextFunding = new Date(fundingPeriodStart(at).getTime() + FUNDING_PERIOD_MS);
  const events = [
    ...rows.map((r) => ({ id: `resolution-${r.id}`, type: 'resolution' as const, title: r.text, marketId: r.id, date: new Date(r.resolution_date).toISOString() })),
    { id: `funding-${nextFunding.toISOString()}`, type: 'funding' as const, title: 'Perpetual funding', marketId: null, date: nextFunding.toISOString() },
  ].sort((a, b) => a.date.localeCompare(b.date));
  return { events };
}
