import { benchEmpty } from '@/lib/contracts/system';
import { AppError } from '@/lib/errors/app-error';
import { notFoundHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/bench/empty: the framework floor (bench/floor.ts). On a server started with
// BENCH_EMPTY_ROUTE=1, `{}` with 200 and nothing else: no wrapper, no rate limit, no database, so
// what it costs is Next.js's own machinery. Otherwise the API's JSON 404, as if it did not exist.
const closed = route(benchEmpty, async ({ req }) => {
  throw new AppError('NOT_FOUND', `No API route at ${req.nextUrl.pathname}`);
});
const empty = async () => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });

export const GET = process.env.BENCH_EMPTY_ROUTE === '1' ? empty : closed;

// POST, PUT, PATCH, DELETE, OPTIONS: 404, as for any path under /api without a route
export const { POST, PUT, PATCH, DELETE, OPTIONS } = notFoundHandlers;
