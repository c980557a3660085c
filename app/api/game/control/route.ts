import { gameControlGet, gameControlPost } from '@/lib/contracts/game';
import { getGameControl, setGameRunning } from '@/lib/game/control';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/game/control — running or paused, game time, the last tick and the world's figures
export const GET = route(gameControlGet, async () => getGameControl());

// POST /api/game/control — {action: 'start' | 'pause'} (administrators)
export const POST = route(gameControlPost, async ({ body }) => setGameRunning(body.action));

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
