import { systemHealth } from '@/lib/contracts/system';
import { route } from '@/lib/http/route';
import { getHealth } from '@/lib/system/service';

// GET /api/health
export const GET = route(systemHealth, async () => getHealth());
