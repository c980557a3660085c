/**
 * The game's control switch and status: running or paused (a paused game's tick answers and does
 * nothing), game time, the last tick, and the world's figures. One world: its id is the game
 * clock's row id.
 */
import { sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { actors, gameClock, markets, organizations, perpPositions, worldEvents } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { CLOCK_ID, readGameClock } from './tick';

export const GAME_NAME = 'Play Money World';
export const GAME_DESCRIPTION =
  'A living market world: fictional companies with tradable perpetuals, NPC actors who post and trade, news every few minutes, and questions that open and resolve from what happens.';

const readStats = async () => {
  const db = await getDb();
  const day = new Date(now().getTime() - 86_400_000).toISOString();
  const [r] = rowsOf<Record<string, number | string>>(
    await db.execute(sql`select
      (select count(*) from ${organizations}) as organizations,
      (select count(*) from ${actors}) as actors,
      (select count(*) from ${markets} where status = 'active') as active_questions,
      (select count(*) from ${markets} where status = 'resolved') as resolved_questions,
      (select count(*) from ${worldEvents}) as world_events,
      (select count(*) from ${worldEvents} where created_at > ${day}::timestamptz) as world_events_24h,
      (select count(*) from ${perpPositions} where status = 'open') as open_perps`),
  );
  return {
    organizations: Number(r!.organizations),
    actors: Number(r!.actors),
    activeQuestions: Number(r!.active_questions),
    resolvedQuestions: Number(r!.resolved_questions),
    worldEvents: Number(r!.world_events),
    worldEvents24h: Number(r!.world_events_24h),
    openPerpPositions: Number(r!.open_perps),
  };
};

export async function getGameStatus() {
  const clock = await readGameClock();
  const paused = clock?.paused ?? false;
  return {
    id: CLOCK_ID,
    status: paused ? ('paused' as const) : ('running' as const),
    running: !paused,
    paused,
    gameTime: clock?.lastTickAt.toISOString() ?? null,
    lastTickAt: clock?.lastRunAt?.toISOString() ?? null,
    lastTickMs: clock?.lastTickMs ?? null,
    tickCount: clock?.tickCount ?? 0,
    stats: await readStats(),
  };
}

/** GET /api/game/control: the status at the top level and under `game`. */
export async function getGameControl() {
  const game = await getGameStatus();
  return { ...game, game };
}

/**
 * Starts or pauses the game. The clock row may not exist before the first tick: the switch
 * creates it at the current game time (which a later tick then only moves forward).
 */
export async function setGameRunning(action: 'start' | 'pause' | 'resume' | 'stop') {
  const paused = action === 'pause' || action === 'stop';
  const db = await getDb();
  await db
    .insert(gameClock)
    .values({ id: CLOCK_ID, lastTickAt: now(), paused })
    .onConflictDoUpdate({ target: gameClock.id, set: { paused } });
  const game = await getGameStatus();
  return { action: paused ? ('pause' as const) : ('start' as const), ...game, game };
}

/** GET /api/games: this one world. */
export async function listGames() {
  return { games: [{ ...(await getGameStatus()), name: GAME_NAME, description: GAME_DESCRIPTION }] };
}
