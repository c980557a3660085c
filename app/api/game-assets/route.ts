import { gameAssetsList } from '@/lib/contracts/world';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listGameAssets } from '@/lib/world/service';

// GET /api/game-assets — shipped avatars of the actors and logos of the organizations
export const GET = route(gameAssetsList, async () => listGameAssets());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
