import { describeMethods } from '@/lib/a2a/service/describe';
import { a2aMethods } from '@/lib/contracts/a2a';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/a2a/methods — public: the A2A method table as data
export const GET = route(a2aMethods, async () => describeMethods());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
