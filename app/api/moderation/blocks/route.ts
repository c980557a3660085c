import { moderationBlockCreate, moderationBlockDelete, moderationBlocksList } from '@/lib/contracts/moderation';
import { AppError } from '@/lib/errors/app-error';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { blockUser, listBlocks, unblockUser } from '@/lib/moderation/service/blocks';

// POST /api/moderation/blocks — block ({userId, reason?})
export const POST = route(moderationBlockCreate, async ({ body, caller }) => blockUser({ caller, ...body }));

// DELETE /api/moderation/blocks — unblock ({userId} in the body, or ?userId=)
export const DELETE = route(moderationBlockDelete, async ({ body, query, caller }) => {
  const userId = body.userId ?? query.userId;
  if (!userId) throw new AppError('VALIDATION_ERROR', 'userId is required (in the body or as ?userId=)');
  return unblockUser({ caller, userId });
});

// GET /api/moderation/blocks — the caller's blocks
export const GET = route(moderationBlocksList, async ({ query, caller }) => listBlocks({ caller, ...query }));

// PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
