import { cronGameTickGet, cronGameTickPost } from '@/lib/contracts/system';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { runGameTick } from '@/lib/system/service';

// The scheduler's limit for one tick (Vercel functions stop at maxDuration); the tick's own step
// budgets end it well before.
export const maxDuration = 60;

// GET /api/cron/game-tick — the scheduler (Vercel cron) calls this every minute
export const GET = route(cronGameTickGet, async () => runGameTick({}));

// POST /api/cron/game-tick — same, with an optional {now} under ALLOW_TEST_CLOCK=1
export const POST = route(cronGameTickPost, async ({ body }) => runGameTick({ now: body.now }));

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
