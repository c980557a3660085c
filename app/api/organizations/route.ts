import { organizationsList } from '@/lib/contracts/world';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listOrganizations } from '@/lib/world/service';

// GET /api/organizations — every organization with ticker, prices, 24 h change and logo
export const GET = route(organizationsList, async () => listOrganizations());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
