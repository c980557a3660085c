import { registryAppDelete } from '@/lib/contracts/registry';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { deleteApp } from '@/lib/registry/service/registry';

// DELETE /api/admin/registry/apps/{appId} — administrators
export const DELETE = route(registryAppDelete, async ({ params }) => deleteApp(params.appId));

// GET, POST, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
