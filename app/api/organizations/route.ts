import { organizationsList } from '@/lib/contracts/world';
import { route } from '@/lib/http/route';
import { listOrganizations } from '@/lib/world/service';

// GET /api/organizations — every organization with ticker, prices, 24 h change and logo
export const GET = route(organizationsList, async () => listOrganizations());
