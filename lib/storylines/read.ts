/**
 * Reads of storylines and calibration (lib/contracts/storylines.ts). A story still developing shows
 * only the beats already landed, without roles, truth or calls; a published one (its question
 * resolved) shows them all. Reads only.
 */
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { getDb, rowsOf, type DbOrTx } from '@/db/client';
import { actors, markets, npcCalibration, npcCalls, organizations, storylineBeats, storylines, users } from '@/db/schema';
import type { TStory, TStoryActor, TStoryBeat } from '@/lib/contracts/storylines';
import { AppError } from '@/lib/errors/app-error';
import { findUserByIdentifier } from '@/lib/users/queries';
import { actorAvatarUrl } from '@/lib/world/assets';

/** NPCs with fewer resolved calls are not ranked. */
export const CALIBRATION_MIN_RESOLVED = 3;

const iso = (d: string | Date) => new Date(d).toISOString();
const actorOf = (id: string | null, username: string | null, name: string | null): TStoryActor | null =>
  id && username ? { id, username, displayName: name ?? username, avatarUrl: actorAvatarUrl(username) } : null;

type TStoryRow = {
  id: string;
  market_id: string;
  question: string;
  title: string;
  theme: string;
  published_at: string | Date | null;
  outcome: 'YES' | 'NO' | null;
  starts_at: string | Date;
  ends_at: string | Date;
  org_id: string | null;
  org_name: string | null;
  org_ticker: string | null;
};

/** Stories by a filter, in the given order, with their beats and (published) calls: three statements. */
async function loadStories(db: DbOrTx, where: ReturnType<typeof sql>, order: ReturnType<typeof sql>, limit: number): Promise<TStory[]> {
  const rows = rowsOf<TStoryRow>(
    await db.execute(sql`
      select s.id, s.market_id, m.text as question, s.title, s.theme, s.published_at, s.outcome, s.starts_at, s.ends_at,
        o.id as org_id, o.name as org_name, o.ticker as org_ticker
      from ${storylines} s join ${markets} m on m.id = s.market_id left join ${organizations} o on o.id = s.organization_id
      where ${where}
      order by ${order}
      limit ${limit}`),
  );
  if (!rows.length) return [];
  const ids = sql.join(
    rows.map((r) => sql`${r.id}`),
    sql`, `,
  );
  const beats = rowsOf<{
    storyline_id: string;
    seq: number;
    at: string | Date;
    kind: string;
    headline: string;
    body: string;
    direction: 'YES' | 'NO' | null;
    role: TStoryBeat['role'];
    truthful: boolean | null;
    landed: boolean;
    actor_id: string | null;
    username: string | null;
    display_name: string | null;
  }>(
    await db.execute(sql`
      select b.storyline_id, b.seq, b.at, b.kind, b.headline, b.body, b.direction, b.role, b.truthful, (b.published_at is not null) as landed,
        u.id as actor_id, u.username, u.display_name
      from ${storylineBeats} b left join ${users} u on u.id = b.actor_id
      where b.storyline_id in (${ids})
      order by b.storyline_id, b.seq`),
  );
  const publishedMarkets = rows.filter((r) => r.published_at !== null).map((r) => r.market_id);
  const calls = publishedMarkets.length
    ? rowsOf<{ market_id: string; user_id: string; username: string; display_name: string | null; probability: string; called_at: string | Date; outcome: 'YES' | 'NO' }>(
        await db.execute(sql`
          select distinct on (c.market_id, c.user_id) c.market_id, c.user_id, u.username, u.display_name, c.probability::text as probability, c.called_at,
            m.resolved_outcome as outcome
          from ${npcCalls} c join ${users} u on u.id = c.user_id join ${markets} m on m.id = c.market_id
          where c.market_id in (${sql.join(
            publishedMarkets.map((id) => sql`${id}`),
            sql`, `,
          )}) and m.resolved_outcome is not null and c.called_at <= coalesce(m.resolved_at, m.resolution_date)
          order by c.market_id, c.user_id, c.called_at desc, c.id desc`),
      )
    : [];
  return rows.map((r) => {
    const published = r.published_at !== null;
    return {
      id: r.id,
      marketId: r.market_id,
      question: r.question,
      title: r.title,
      theme: r.theme,
      status: published ? 'published' : 'developing',
      organization: r.org_id ? { id: r.org_id, name: r.org_name!, ticker: r.org_ticker! } : null,
      startsAt: iso(r.starts_at),
      endsAt: iso(r.ends_at),
      outcome: published ? r.outcome : null,
      beats: beats
        .filter((b) => b.storyline_id === r.id && (published || b.landed))
        .map((b) => ({
          seq: Number(b.seq),
          at: iso(b.at),
          // A deceiver's misdirection reads as a hint until the story is published.
          kind: !published && b.kind === 'misdirection' ? 'hint' : b.kind,
          headline: b.headline,
          body: b.body,
          actor: actorOf(b.actor_id, b.username, b.display_name),
          direction: b.direction,
          role: published ? b.role : null,
          truthful: published ? b.truthful : null,
        })),
      calls: calls
        .filter((c) => c.market_id === r.market_id)
        .map((c) => ({
          actor: actorOf(c.user_id, c.username, c.display_name)!,
          probability: Number(c.probability),
          calledAt: iso(c.called_at),
          right: Number(c.probability) >= 0.5 === (c.outcome === 'YES'),
        })),
    };
  });
}

/** GET /api/markets/predictions/{id}/story */
export async function getQuestionStory(marketId: string) {
  const db = await getDb();
  const [m] = await db.select({ id: markets.id }).from(markets).where(eq(markets.id, marketId));
  if (!m) throw new AppError('NOT_FOUND', 'Question not found', { marketId });
  const [story] = await loadStories(db, sql`s.market_id = ${marketId}`, sql`s.id`, 1);
  return { marketId, story: story ?? null };
}

/** GET /api/markets/perps/tickers/{ticker}/story: developing stories (oldest first), the newest 5 resolved. */
export async function getTickerStories(ticker: string) {
  const db = await getDb();
  const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.ticker, ticker));
  if (!org) throw new AppError('NOT_FOUND', 'Ticker not found', { ticker });
  const developing = await loadStories(db, sql`s.organization_id = ${org.id} and s.published_at is null`, sql`s.created_at, s.id`, 50);
  const resolved = await loadStories(db, sql`s.organization_id = ${org.id} and s.published_at is not null`, sql`s.published_at desc, s.id desc`, 5);
  return { ticker, developing, resolved };
}

/** GET /api/actors/{actorId}/calibration: by user id or username; 404 unless it names an NPC actor. */
export async function getActorCalibration(ident: string) {
  const db = await getDb();
  const user = await findUserByIdentifier(db, ident);
  const [actor] = user ? await db.select({ id: actors.userId }).from(actors).where(eq(actors.userId, user.id)) : [];
  if (!user || !actor) throw new AppError('NOT_FOUND', 'Actor not found', { actorId: ident });
  const min = CALIBRATION_MIN_RESOLVED;
  const [row] = rowsOf<{ resolved: number | null; right: number | null; brier: string | null; rank: number | string | null; ranked: number | string }>(
    await db.execute(sql`
      select c.resolved, c."right", c.brier::text as brier,
        case when c.resolved >= ${min} and c.brier is not null
          then (select count(*) + 1 from ${npcCalibration} o where o.resolved >= ${min} and o.brier < c.brier) end as rank,
        (select count(*) from ${npcCalibration} o where o.resolved >= ${min} and o.brier is not null) as ranked
      from (select 1) one left join ${npcCalibration} c on c.user_id = ${user.id}`),
  );
  const recent = rowsOf<{ market_id: string; question: string; probability: string; outcome: 'YES' | 'NO'; called_at: string | Date }>(
    await db.execute(sql`
      select * from (
        select distinct on (c.market_id) c.market_id, m.text as question, c.probability::text as probability, m.resolved_outcome as outcome, c.called_at
        from ${npcCalls} c join ${markets} m on m.id = c.market_id
        where c.user_id = ${user.id} and m.resolved_outcome is not null and c.called_at <= coalesce(m.resolved_at, m.resolution_date)
        order by c.market_id, c.called_at desc, c.id desc
      ) last order by last.called_at desc, last.market_id limit 10`),
  );
  return {
    actorId: user.id,
    calibration: {
      resolved: Number(row?.resolved ?? 0),
      right: Number(row?.right ?? 0),
      brier: row?.brier == null ? null : Number(row.brier),
      rank: row?.rank == null ? null : Number(row.rank),
      ranked: Number(row?.ranked ?? 0),
    },
    recent: recent.map((r) => ({
      marketId: r.market_id,
      question: r.question,
      probability: Number(r.probability),
      outcome: r.outcome,
      right: Number(r.probability) >= 0.5 === (r.outcome === 'YES'),
      calledAt: iso(r.called_at),
    })),
  };
}

/** GET /api/actors/calibration: NPCs with at least 3 resolved calls, best (lowest) Brier first. */
export async function listCalibration(limit: number) {
  const db = await getDb();
  const rows = rowsOf<{ id: string; username: string; display_name: string | null; resolved: number; right: number; brier: string }>(
    await db.execute(sql`
      select u.id, u.username, u.display_name, c.resolved, c."right", c.brier::text as brier
      from ${npcCalibration} c join ${users} u on u.id = c.user_id
      where c.resolved >= ${CALIBRATION_MIN_RESOLVED} and c.brier is not null
      order by c.brier, c.resolved desc, u.id
      limit ${limit}`),
  );
  return {
    actors: rows.map((r) => ({
      id: r.id,
      username: r.username,
      displayName: r.display_name ?? r.username,
      avatarUrl: actorAvatarUrl(r.username),
      resolved: Number(r.resolved),
      right: Number(r.right),
      brier: Number(r.brier),
    })),
  };
}
