/**
 * Milestones of the specification ("Points awarded for milestones") and the other once-only
 * awards. Pure: the names, the points and the award keys; lib/points/ledger pays them.
 */
export const MILESTONES = {
  profile_completed: { points: 50, label: 'Complete your profile' },
  profile_image: { points: 25, label: 'Add a profile image' },
  username_set: { points: 25, label: 'Choose your username' },
  social_a_linked: { points: 50, label: 'Link your social_a account' },
  social_b_linked: { points: 50, label: 'Link your social_b account' },
  wallet_connected: { points: 25, label: 'Connect a wallet' },
  first_referral: { points: 100, label: 'Refer your first player' },
} as const;

export type TMilestone = keyof typeof MILESTONES;
export const MILESTONE_NAMES = Object.keys(MILESTONES) as TMilestone[];

export function milestoneAwardKey(m: TMilestone) {
  return `milestone:${m}`;
}

/** Points for a verified share, once per piece of content and platform. */
export const SHARE_POINTS = 10;
export function shareAwardKey(platform: string, contentType: string, contentId: string) {
  return `share:${platform}:${contentType}:${contentId}`;
}

/** The waitlist's email bonus (once per player); the wallet bonus is the wallet_connected milestone. */
export const WAITLIST_EMAIL_POINTS = 25;
export const WAITLIST_EMAIL_AWARD_KEY = 'waitlist:email';
