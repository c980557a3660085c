/**
 * The canned reasons a moderator picks from when removing content, warning or banning (issue 35).
 * "other" asks for free text. No imports: the contracts and the browser read the same list.
 */
export const MODERATION_REASONS = [
  { code: 'spam', label: 'Spam' },
  { code: 'harassment', label: 'Harassment' },
  { code: 'off_topic', label: 'Off-topic' },
  { code: 'misinformation', label: 'Misinformation' },
  { code: 'hate_speech', label: 'Hate speech' },
  { code: 'impersonation', label: 'Impersonation' },
  { code: 'other', label: 'Other' },
] as const;

export type TModerationReasonCode = (typeof MODERATION_REASONS)[number]['code'];

/** The moderation actions the audit trail records (db/schema/moderation.ts moderation_actions.action). */
export const MODERATION_ACTIONS = ['remove_post', 'restore_post', 'remove_comment', 'restore_comment', 'warn', 'ban', 'unban'] as const;
export type TModerationAction = (typeof MODERATION_ACTIONS)[number];

/** What a removed comment's place shows to everyone but administrators and moderators. */
export function removedText(reason: string | null) {
  return `Removed by a moderator: ${reason?.trim() || 'no reason given'}`;
}
