import { gamesList } from '@/lib/contracts/game';
import { listGames } from '@/lib/game/control';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/games — the games (this one world) with status and figures
export const GET = route(gamesList, async () => listGames());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
