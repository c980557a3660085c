import { notFoundHandlers } from '@/lib/http/fallback';

// * /api/… with no route file — 404 NOT_FOUND in the JSON envelope (not Next's HTML page)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = notFoundHandlers;
