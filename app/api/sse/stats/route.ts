import { sseStats } from '@/lib/contracts/realtime';
import { route } from '@/lib/http/route';
import { getSseStats } from '@/lib/realtime';

// GET /api/sse/stats — connected SSE clients on this instance, per channel
export const GET = route(sseStats, async () => getSseStats());
