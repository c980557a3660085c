import { gameAssetsList } from '@/lib/contracts/world';
import { route } from '@/lib/http/route';
import { listGameAssets } from '@/lib/world/service';

// GET /api/game-assets — shipped avatars of the actors and logos of the organizations
export const GET = route(gameAssetsList, async () => listGameAssets());
