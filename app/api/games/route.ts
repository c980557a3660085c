import { gamesList } from '@/lib/contracts/game';
import { listGames } from '@/lib/game/control';
import { route } from '@/lib/http/route';

// GET /api/games — the games (this one world) with status and figures
export const GET = route(gamesList, async () => listGames());
