/**
 * The value sets of moderation records, without drizzle: the schema and the API contracts (which
 * the browser bundles) read the same lists.
 */
export const REPORT_CATEGORIES = [
  'spam',
  'harassment',
  'hate_speech',
  'violence',
  'misinformation',
  'inappropriate',
  'impersonation',
  'self_harm',
  'other',
] as const;
export const REPORT_STATUSES = ['pending', 'reviewing', 'resolved', 'dismissed'] as const;
/** The specification shows low, high and critical; medium is the middle value for the other categories. */
export const REPORT_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export const REPORT_ACTIONS = ['review', 'resolve', 'dismiss', 'escalate', 'ban_user', 'unban_user'] as const;
