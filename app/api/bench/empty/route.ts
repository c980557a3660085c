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
// The floor of a write: the same, after reading the request's body (Next.js hands it over as a web stream).
const emptyPost = async (req: Request) => {
  await req.arrayBuffer();
  return empty();
};

export const GET = process.env.BENCH_EMPTY_ROUTE === '1' ? empty : closed;
export const POST = process.env.BENCH_EMPTY_ROUTE === '1' ? emptyPost : notFoundHandlers.POST;

// PUT, PATCH, DELETE, OPTIONS: 404, as for any path under /api without a route
export const { PUT, PATCH, DELETE, OPTIONS } = notFoundHandlers;
