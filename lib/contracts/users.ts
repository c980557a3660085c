/** Accounts: current user, profiles, profile updates, balance, stats, search, onboarding. */
import { z } from 'zod';
import { IMAGE_URL_MAX, imageUrlProblem } from '@/lib/uploads/image-url';
import { USERNAME_PATTERN } from '@/lib/users/names';
import type { TAccountNumbers } from '@/lib/ledger/account-numbers';
import { ZDecimalString, zQueryInt, ZSuccess, ZTimestamp, ZUserIdParams, type TSame } from './common';
import { defineEndpoint } from './endpoint';

const ZProductNumbers = z.object({
  value: ZDecimalString.describe('what is open now, at current prices'),
  costBasis: ZDecimalString.describe('what the open part cost (perps: their margin)'),
  realized: ZDecimalString,
  unrealized: ZDecimalString.describe('value − costBasis'),
  pnl: ZDecimalString.describe('realized + unrealized: every cash flow of the product, fees included, plus its open value'),
});

/**
 * One account's numbers, the one definition (lib/equity/README.md) every screen and API shows:
 * equity = cash + prediction shares at the price + perps at the mark (with funding, never below
 * zero each) + pool shares at the share price; P&L = equity − contributions = Σ products' pnl.
 */
export const ZAccountNumbers = z
  .object({
    cash: ZDecimalString,
    equity: ZDecimalString,
    contributions: ZDecimalString.describe('money put in otherwise than by trading: the starting grant, bonuses, transfers, referral fees'),
    pnl: ZDecimalString.describe('equity − contributions: realized + unrealized, fees and pools included'),
    realizedPnL: ZDecimalString,
    unrealizedPnL: ZDecimalString,
    roi: ZDecimalString.describe('pnl / contributions, a fraction'),
    products: z.object({ predictions: ZProductNumbers, perps: ZProductNumbers, pools: ZProductNumbers }),
  })
  .describe('equity and P&L (owner and administrators only)');
const _accountNumbers: TSame<z.infer<typeof ZAccountNumbers>, TAccountNumbers> = true;

export const ZUserStats = z.object({
  followersCount: z.number().int(),
  followingCount: z.number().int(),
  postsCount: z.number().int(),
  tradesCount: z.number().int(),
  lifetimePnL: z.number(),
  winRate: z.number().min(0).max(1),
  totalTrades: z.number().int(),
  reputationPoints: z.number().int(),
  referralCount: z.number().int(),
  followers: z.number().int(),
  following: z.number().int(),
  posts: z.number().int(),
  positions: z.number().int(),
  comments: z.number().int(),
  reactions: z.number().int(),
});

export const ZUser = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string().max(50),
  bio: z.string().max(500).nullable(),
  profileImageUrl: z.string().nullable(),
  coverImageUrl: z.string().nullable(),
  walletAddress: z.string().nullable(),
  virtualBalance: ZDecimalString,
  lifetimePnL: z.number(),
  reputationPoints: z.number().int(),
  isActor: z.boolean(),
  isAgent: z.boolean(),
  isBot: z.boolean().describe('an agent account, or one that trades through an API key: shown with a bot badge'),
  profileComplete: z.boolean(),
  onChainRegistered: z.boolean(),
  hasSocialA: z.boolean(),
  hasSocialB: z.boolean(),
  /** Linked handles, null when not linked or hidden by their owner (update-visibility). */
  socialAUsername: z.string().nullable(),
  socialBUsername: z.string().nullable(),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
  stats: ZUserStats,
  /** Only for the user themself and administrators: equity and P&L (the profile's lifetimePnL is its pnl). */
  account: ZAccountNumbers.optional(),
  email: z.string().nullable().optional(),
  referralCode: z.string().optional(),
  isAdmin: z.boolean().optional(),
  /** Only for the user themself: works the report queue (every administrator does). */
  isModerator: z.boolean().optional(),
  /** Only for the user themself: a banned account reads but cannot write. */
  isBanned: z.boolean().optional(),
  usernameChangedAt: ZTimestamp.nullable().optional(),
  /** Only for the user themself: what their public profile shows. */
  showSocialAPublic: z.boolean().optional(),
  showSocialBPublic: z.boolean().optional(),
  showWalletPublic: z.boolean().optional(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZUserSummary = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  profileImageUrl: z.string().nullable(),
  reputationPoints: z.number().int(),
  isActor: z.boolean(),
});

export const ZTransaction = z.object({
  id: z.string(),
  type: z.string(),
  amount: ZDecimalString,
  balanceBefore: ZDecimalString,
  balanceAfter: ZDecimalString,
  description: z.string(),
  referenceType: z.string().nullable(),
  referenceId: z.string().nullable(),
  createdAt: ZTimestamp,
  timestamp: ZTimestamp,
  /** Additive: what the row was about, readable (the question, "NEXA long 10x", the pool's name). */
  subject: z.string().nullable(),
  /** Additive: the in-app page of its market, ticker or pool (`/markets/<id>`, `/perps/<ticker>`, `/pools/<id>`). */
  link: z.string().nullable(),
});


/**
 * Every image field a caller sets (a post's imageUrl, profileImageUrl, coverImageUrl): this
 * service's uploads, its bundled images or an https URL on another origin, never a path that
 * points back into the service (lib/uploads/image-url.ts). `''` means no image.
 */
export const ZImageUrl = z
  .string()
  .trim()
  .max(IMAGE_URL_MAX)
  .superRefine((s, ctx) => {
    const problem = imageUrlProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe(
    "an image: this service's upload (/api/uploads/<key>, relative or on its own origin), a bundled image (/avatars/<name>.svg, /game-assets/actors|organizations/<name>.svg) or an https URL on another origin; any other path of this service is refused (400)",
  );

export const ZUsername = z
  .string()
  .max(20)
  .regex(USERNAME_PATTERN, 'usernames are 3 to 20 letters, digits or underscores');

export const ZUpdateProfileBody = z.strictObject({
  displayName: z.string().trim().max(50, 'displayName is at most 50 characters').optional(),
  bio: z.string().max(500, 'bio is at most 500 characters').nullable().optional(),
  username: ZUsername.optional(),
  profileImageUrl: ZImageUrl.nullable().optional(),
  coverImageUrl: ZImageUrl.nullable().optional(),
});
export type TUpdateProfileBody = z.infer<typeof ZUpdateProfileBody>;

const ZUserResponse = z.object({ success: ZSuccess, user: ZUser });

export const usersMe = defineEndpoint({
  id: 'users.me',
  method: 'GET',
  path: '/api/users/me',
  summary: 'The authenticated user (created on first request), with email and referral code',
  tag: 'users',
  auth: 'user',
  requires: ['read'],
  response: ZUserResponse,
});

export const usersProfile = defineEndpoint({
  id: 'users.profile',
  method: 'GET',
  path: '/api/users/{userId}/profile',
  summary: 'A public profile by user id, username or wallet address',
  tag: 'users',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  rateLimit: 'profileRead',
  params: ZUserIdParams,
  response: ZUserResponse,
  errors: ['USER_NOT_FOUND'],
});

export const usersByUsername = defineEndpoint({
  id: 'users.byUsername',
  method: 'GET',
  path: '/api/users/by-username/{username}',
  summary: 'A public profile by username (case-insensitive)',
  tag: 'users',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  rateLimit: 'profileRead',
  params: z.object({ username: z.string().min(1).max(100) }),
  response: ZUserResponse,
  errors: ['USER_NOT_FOUND'],
});

export const usersUpdateProfile = defineEndpoint({
  id: 'users.updateProfile',
  method: 'POST',
  path: '/api/users/{userId}/update-profile',
  summary: 'Update your own profile; the username changes at most once per 30 days',
  tag: 'users',
  auth: 'user',
  requires: ['account'],
  rateLimit: 'profileUpdate',
  params: ZUserIdParams,
  body: ZUpdateProfileBody,
  response: ZUserResponse,
  errors: ['FORBIDDEN', 'USERNAME_TAKEN', 'USERNAME_CHANGE_TOO_SOON', 'VALIDATION_ERROR'],
});

export const usersBalance = defineEndpoint({
  id: 'users.balance',
  method: 'GET',
  path: '/api/users/{userId}/balance',
  summary: 'Balance and transaction history (owner only)',
  tag: 'users',
  auth: 'user',
  requires: ['read'],
  params: ZUserIdParams,
  query: z.object({ limit: zQueryInt({ default: 50, min: 1, max: 200 }), offset: zQueryInt({ default: 0 }) }),
  response: z.object({
    success: ZSuccess,
    balance: ZDecimalString,
    totalDeposited: ZDecimalString,
    totalWithdrawn: ZDecimalString,
    lifetimePnL: ZDecimalString.describe('the one P&L: account.pnl'),
    account: ZAccountNumbers,
    transactions: z.array(ZTransaction),
  }),
  errors: ['FORBIDDEN', 'NOT_FOUND'],
});

export const usersStats = defineEndpoint({
  id: 'users.stats',
  method: 'GET',
  path: '/api/users/{userId}/stats',
  summary: "A user's stats",
  tag: 'users',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: ZUserIdParams,
  response: z.object({ success: ZSuccess, stats: ZUserStats }),
  errors: ['USER_NOT_FOUND'],
});

export const usersSearch = defineEndpoint({
  id: 'users.search',
  method: 'GET',
  path: '/api/users/search',
  summary: 'Search users and actors by username or display name',
  tag: 'users',
  auth: 'user',
  requires: ['read'],
  reads: 'replica',
  rateLimit: 'search',
  query: z.object({
    q: z.string().max(100).default(''),
    limit: zQueryInt({ default: 20, min: 1, max: 100 }),
    type: z.enum(['user', 'actor']).optional(),
  }),
  response: z.object({ success: ZSuccess, users: z.array(ZUserSummary), count: z.number().int() }),
});

export const usersIsNew = defineEndpoint({
  id: 'users.isNew',
  method: 'GET',
  path: '/api/users/{userId}/is-new',
  summary: 'Whether the user still needs to set up a profile',
  tag: 'users',
  auth: 'user',
  requires: ['read'],
  params: ZUserIdParams,
  response: z.object({ success: ZSuccess, isNew: z.boolean(), needsSetup: z.boolean(), profileComplete: z.boolean() }),
  errors: ['FORBIDDEN', 'USER_NOT_FOUND'],
});

export const onboardingCheckUsername = defineEndpoint({
  id: 'onboarding.checkUsername',
  method: 'GET',
  path: '/api/onboarding/check-username',
  summary: 'Whether a username is valid and free',
  tag: 'onboarding',
  auth: 'public',
  requires: ['read'],
  query: z.object({ username: z.string().min(1, 'username is required').max(100) }),
  response: z.object({ success: ZSuccess, available: z.boolean(), reason: z.string().optional() }),
});

export const onboardingGenerateProfile = defineEndpoint({
  id: 'onboarding.generateProfile',
  method: 'GET',
  path: '/api/onboarding/generate-profile',
  summary: 'A random free username, display name, bio and avatar suggestion',
  tag: 'onboarding',
  auth: 'user',
  requires: ['read'],
  response: z.object({
    success: ZSuccess,
    username: z.string(),
    displayName: z.string(),
    bio: z.string(),
    profileImageUrl: z.string(),
  }),
});

export const usersEndpoints = [
  usersMe,
  usersProfile,
  usersByUsername,
  usersUpdateProfile,
  usersBalance,
  usersStats,
  usersSearch,
  usersIsNew,
  onboardingCheckUsername,
  onboardingGenerateProfile,
] as const;
