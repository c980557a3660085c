/**
 * The ten moderation methods of the specification, on the same state as the REST moderation
 * routes (lib/moderation/service): a block made here is visible there and back.
 */
import { z } from 'zod';
import { ZIdParam, zText } from '@/lib/contracts/common';
import { A2A_RESULTS } from '@/lib/contracts/a2a';
import { ZEvidenceUrl, ZReportCategory } from '@/lib/contracts/moderation';
import { blockUser, getBlockStatus, listBlocks, unblockUser } from '@/lib/moderation/service/blocks';
import { getMuteStatus, listMutes, muteUser, unmuteUser } from '@/lib/moderation/service/mutes';
import { reportPost, reportUser } from '@/lib/moderation/service/reports';
import { aliasField, defineMethod } from './types';

const ZTarget = z.object({ userId: ZIdParam.describe('the other player: id or username') });
const ZReason = zText({ max: 500, description: 'why (up to 500 characters); only you see it' }).optional();
const ZPage = z.object({ limit: z.number().int().min(1).max(100).default(20), offset: z.number().int().min(0).default(0) });
const ZReport = {
  category: ZReportCategory,
  reason: zText({ min: 10, max: 2000, description: '10 to 2000 characters: what happened' }),
  evidence: ZEvidenceUrl.optional(),
};
/** `targetUserId` and `targetId` are what some clients call the other player. */
const target = (raw: Record<string, unknown>) => aliasField(raw, 'userId', ['targetUserId', 'targetId', 'blockedUserId', 'mutedUserId']);

export const moderationMethods = [
  defineMethod({
    name: 'moderation.blockUser',
    aliases: ['a2a.blockUser'],
    summary: 'Block a player: neither sees the other; follows between you are removed',
    group: 'moderation',
    kind: 'write',
    requires: ['social'],
    rateLimit: 'block',
    params: z.strictObject({ ...ZTarget.shape, reason: ZReason }),
    normalize: target,
    result: A2A_RESULTS['moderation.blockUser'],
    run: ({ caller }, p) => blockUser({ caller, userId: p.userId, reason: p.reason }),
  }),
  defineMethod({
    name: 'moderation.unblockUser',
    aliases: ['a2a.unblockUser'],
    summary: 'Unblock a player',
    group: 'moderation',
    kind: 'write',
    requires: ['social'],
    rateLimit: 'block',
    params: z.strictObject(ZTarget.shape),
    normalize: target,
    result: A2A_RESULTS['moderation.unblockUser'],
    run: ({ caller }, p) => unblockUser({ caller, userId: p.userId }),
  }),
  defineMethod({
    name: 'moderation.muteUser',
    aliases: ['a2a.muteUser'],
    summary: "Mute a player: their posts leave your feeds; they are not told",
    group: 'moderation',
    kind: 'write',
    requires: ['social'],
    rateLimit: 'mute',
    params: z.strictObject({ ...ZTarget.shape, reason: ZReason }),
    normalize: target,
    result: A2A_RESULTS['moderation.muteUser'],
    run: ({ caller }, p) => muteUser({ caller, userId: p.userId, reason: p.reason }),
  }),
  defineMethod({
    name: 'moderation.unmuteUser',
    aliases: ['a2a.unmuteUser'],
    summary: 'Unmute a player',
    group: 'moderation',
    kind: 'write',
    requires: ['social'],
    rateLimit: 'mute',
    params: z.strictObject(ZTarget.shape),
    normalize: target,
    result: A2A_RESULTS['moderation.unmuteUser'],
    run: ({ caller }, p) => unmuteUser({ caller, userId: p.userId }),
  }),
  defineMethod({
    name: 'moderation.reportUser',
    aliases: ['a2a.reportUser'],
    summary: 'Report a player to the moderators (one per category in 24 hours)',
    group: 'moderation',
    kind: 'write',
    requires: ['social'],
    rateLimit: 'report',
    params: z.strictObject({ ...ZTarget.shape, ...ZReport }),
    normalize: (raw) => target(aliasField(raw, 'reason', ['description', 'details'])),
    result: A2A_RESULTS['moderation.reportUser'],
    run: ({ caller }, p) => reportUser({ caller, userId: p.userId, category: p.category, reason: p.reason, evidence: p.evidence }),
  }),
  defineMethod({
    name: 'moderation.reportPost',
    aliases: ['a2a.reportPost'],
    summary: 'Report a post to the moderators (one per category in 24 hours)',
    group: 'moderation',
    kind: 'write',
    requires: ['social'],
    rateLimit: 'report',
    params: z.strictObject({ postId: ZIdParam, ...ZReport }),
    normalize: (raw) => aliasField(aliasField(raw, 'postId', ['targetPostId', 'targetId']), 'reason', ['description', 'details']),
    result: A2A_RESULTS['moderation.reportPost'],
    run: ({ caller }, p) => reportPost({ caller, postId: p.postId, category: p.category, reason: p.reason, evidence: p.evidence }),
  }),
  defineMethod({
    name: 'moderation.getBlocks',
    aliases: ['a2a.getBlocks'],
    summary: 'The players you blocked, newest first',
    group: 'moderation',
    kind: 'read',
    requires: ['read'],
    params: ZPage,
    result: A2A_RESULTS['moderation.getBlocks'],
    run: ({ caller }, p) => listBlocks({ caller, limit: p.limit, offset: p.offset }),
  }),
  defineMethod({
    name: 'moderation.getMutes',
    aliases: ['a2a.getMutes'],
    summary: 'The players you muted, newest first',
    group: 'moderation',
    kind: 'read',
    requires: ['read'],
    params: ZPage,
    result: A2A_RESULTS['moderation.getMutes'],
    run: ({ caller }, p) => listMutes({ caller, limit: p.limit, offset: p.offset }),
  }),
  defineMethod({
    name: 'moderation.checkBlockStatus',
    aliases: ['a2a.checkBlockStatus'],
    summary: 'Whether you blocked a player, and whether they blocked you',
    group: 'moderation',
    kind: 'read',
    requires: ['read'],
    params: z.strictObject(ZTarget.shape),
    normalize: target,
    result: A2A_RESULTS['moderation.checkBlockStatus'],
    run: ({ caller }, p) => getBlockStatus({ caller, userId: p.userId }),
  }),
  defineMethod({
    name: 'moderation.checkMuteStatus',
    aliases: ['a2a.checkMuteStatus'],
    summary: 'Whether you muted a player',
    group: 'moderation',
    kind: 'read',
    requires: ['read'],
    params: z.strictObject(ZTarget.shape),
    normalize: target,
    result: A2A_RESULTS['moderation.checkMuteStatus'],
    run: ({ caller }, p) => getMuteStatus({ caller, userId: p.userId }),
  }),
];
