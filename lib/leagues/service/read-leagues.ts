/**
 * GET /api/leagues, /api/leagues/division and /api/users/{userId}/leagues. An open season's
 * division is scored live from the daily closes so far (a few dozen players: two indexed reads);
 * a closed one answers its stored results. A season whose close is under way (its divisions ranked
 * over several ticks) is still open: it reads live, and its stored results show once it is closed.
 */
import 'server-only';
import { and, desc, eq, sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { leagueMembers, leagueSeasons } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { userSummaryOfRow } from '@/lib/users/dto';
import { findUserById } from '@/lib/users/queries';
import { DIVISION_SIZE, MIN_DAYS, MIN_TRADES, PROMOTE_SHARE, RELEGATE_SHARE, TIERS, TOP_TIER, VOLATILITY_FLOOR, seasonOf } from '../math';
import { loadMembers, loadSeason, loadSeasons, type TMemberRow, type TSeasonRow } from '../queries';
import { rankSeason, scoreMembers } from './seasons';

export const LEAGUE_RULES = {
  formula:
    'Daily return r = (equity at the close − equity at the previous close − money deposited or transferred in that day) ÷ equity at the previous close. ' +
    'Season return R = (1 + r₁) × … × (1 + rₙ) − 1. Volatility σ = standard deviation of the daily returns × √n. ' +
    `Risk s = max(σ, ${VOLATILITY_FLOOR * 100} %) ÷ ${VOLATILITY_FLOOR * 100} %. Score = 100 × R ÷ s for a gain, 100 × R × s for a loss. Equity counts cash, open positions at their marks and pool shares at their price, ` +
    'so size does not matter (doubling every amount gives the same score) and the steadier of two equal results ranks higher, gains and losses alike.',
  minTrades: MIN_TRADES,
  minDays: MIN_DAYS,
  divisionSize: DIVISION_SIZE,
  promoteShare: PROMOTE_SHARE,
  relegateShare: RELEGATE_SHARE,
  volatilityFloor: VOLATILITY_FLOOR,
};

const iso = (d: string | Date) => new Date(d).toISOString();
const toSeason = (s: TSeasonRow) => ({ id: s.id, startsAt: iso(s.starts_at), endsAt: iso(s.ends_at), status: s.status, members: Number(s.members) });
const placement = (tier: number, division: number) => ({ tier, tierName: TIERS[tier]!, division });

const currentSeason = async () => {
  const db = await getDb();
  const at = now();
  const current = await loadSeason(db, seasonOf(at).id);
  return current ?? (await loadSeasons(db, 1))[0];
};

export async function readLeaguesOverview(callerId?: string) {
  const db = await getDb();
  const [season, seasons] = await Promise.all([currentSeason(), loadSeasons(db, 10)]);
  const tiers = season
    ? rowsOf<{ tier: number; divisions: string; members: string }>(
        await db.execute(sql`
          select tier, count(distinct division) as divisions, count(*) as members from ${leagueMembers}
          where season_id = ${season.id} group by tier order by tier`),
      )
    : [];
  const [mine] =
    season && callerId
      ? await db
          .select({ tier: leagueMembers.tier, division: leagueMembers.division })
          .from(leagueMembers)
          .where(and(eq(leagueMembers.seasonId, season.id), eq(leagueMembers.userId, callerId)))
      : [];
  return {
    season: season ? toSeason(season) : null,
    now: now().toISOString(),
    tiers: TIERS.map((name, tier) => {
      const t = tiers.find((x) => x.tier === tier);
      return { tier, tierName: name, divisions: Number(t?.divisions ?? 0), members: Number(t?.members ?? 0) };
    }),
    me: mine ? placement(mine.tier, mine.division ?? 1) : null,
    rules: LEAGUE_RULES,
    seasons: seasons.map(toSeason),
  };
}

const toEntry = (m: TMemberRow, live: { rank: number | null; score: number; seasonReturn: number; volatility: number; trades: number; days: number; qualified: boolean; outcome: 'promoted' | 'relegated' | 'stayed' } | null, closed: boolean) => {
  const qualified = closed ? Boolean(m.qualified) : live!.qualified;
  const rank = closed ? m.rank : live!.rank;
  const outcome = closed ? m.outcome : live!.outcome;
  return {
    rank,
    user: { ...userSummaryOfRow(m.user_id, m, { reputation: false }), isBot: !m.is_actor && m.is_bot },
    kind: m.is_actor ? ('actor' as const) : m.is_bot ? ('agent' as const) : ('user' as const),
    score: closed ? Number(m.score ?? 0) : live!.score,
    seasonReturn: closed ? Number(m.season_return ?? 0) : live!.seasonReturn,
    volatility: closed ? Number(m.volatility ?? 0) : live!.volatility,
    trades: closed ? (m.trades ?? 0) : live!.trades,
    days: closed ? (m.days ?? 0) : live!.days,
    qualified,
    zone: !qualified ? null : outcome === 'promoted' ? ('promotion' as const) : outcome === 'relegated' ? ('relegation' as const) : ('safe' as const),
    outcome: closed ? m.outcome : null,
    startEquity: m.start_equity,
  };
};

const highestTier = async (seasonId: string) => {
  const db = await getDb();
  const [r] = rowsOf<{ tier: number | null }>(await db.execute(sql`select max(tier) as tier from ${leagueMembers} where season_id = ${seasonId}`));
  return r?.tier ?? TOP_TIER;
};

export async function readLeagueDivision(input: { season?: string; tier?: number; division: number; callerId?: string }) {
  const db = await getDb();
  const season = input.season ? await loadSeason(db, input.season) : await currentSeason();
  if (!season) throw new AppError('NOT_FOUND', input.season ? 'No such season' : 'No season has started yet', { season: input.season ?? null });
  const [mine] = input.callerId
    ? await db
        .select({ tier: leagueMembers.tier, division: leagueMembers.division })
        .from(leagueMembers)
        .where(and(eq(leagueMembers.seasonId, season.id), eq(leagueMembers.userId, input.callerId)))
    : [];
  // Not seated: the highest tier anyone is in (a young world's diamond tier is empty).
  const tier = input.tier ?? mine?.tier ?? (await highestTier(season.id));
  const [{ n } = { n: '0' }] = rowsOf<{ n: string }>(
    await db.execute(sql`select count(distinct division) as n from ${leagueMembers} where season_id = ${season.id} and tier = ${tier}`),
  );
  const divisions = Number(n);
  const division = input.division || (mine && mine.tier === tier ? (mine.division ?? 1) : 1);
  if (divisions > 0 && division > divisions) throw new AppError('NOT_FOUND', 'No such division', { tier, division, divisions });
  const members = await loadMembers(db, season.id, { tier, division });
  const closed = season.status === 'closed';
  let entries;
  if (closed) {
    entries = members.map((m) => toEntry(m, null, true));
  } else {
    const scored = await scoreMembers(db, { startsAt: new Date(season.starts_at), endsAt: new Date(season.ends_at) }, members);
    const live = new Map(rankSeason(scored, () => division).map((r) => [r.member.userId, { ...r.member, rank: r.rank, outcome: r.outcome }]));
    entries = members.map((m) => toEntry(m, live.get(m.user_id)!, false));
  }
  entries.sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || (a.user.id < b.user.id ? -1 : 1));
  return {
    season: toSeason(season),
    now: now().toISOString(),
    placement: placement(tier, division),
    divisions,
    entries,
    me: entries.find((e) => e.user.id === input.callerId) ?? null,
    rules: LEAGUE_RULES,
  };
}

export async function readLeagueHistory(userId: string) {
  const db = await getDb();
  const user = await findUserById(db, userId);
  if (!user || user.isPoolAccount) throw new AppError('USER_NOT_FOUND', 'User not found', { userId });
  const rows = await db
    .select({ m: leagueMembers, s: leagueSeasons })
    .from(leagueMembers)
    .innerJoin(leagueSeasons, eq(leagueSeasons.id, leagueMembers.seasonId))
    .where(eq(leagueMembers.userId, userId))
    .orderBy(desc(leagueMembers.seasonId))
    .limit(52);
  return {
    history: rows.map(({ m, s }) => {
      // A season is final only once closed: while its close is under way (division by division,
      // over several ticks) a division already ranked still reads as open, without results.
      const closed = s.status === 'closed';
      return {
        ...placement(m.tier, m.division ?? 1),
        seasonId: s.id,
        startsAt: s.startsAt.toISOString(),
        endsAt: s.endsAt.toISOString(),
        status: s.status,
        rank: closed ? m.rank : null,
        score: closed && m.score !== null ? Number(m.score) : null,
        seasonReturn: closed && m.seasonReturn !== null ? Number(m.seasonReturn) : null,
        qualified: closed ? m.qualified : null,
        outcome: closed ? m.outcome : null,
      };
    }),
  };
}
