/**
 * The rate-limit table of the specification ("Limits"), in one place. Routes name a rule; a
 * route without a rule of its own counts against the general rule of its caller (authenticated
 * or public). Rules with the same name share one counter (like and unlike, buy and sell).
 * Pure data, declared beside the endpoints that name their rule (endpoint.ts), so a contract needs
 * nothing of the operation core; lib/operations/rate-limit.ts counts them.
 */
export const RATE_LIMITS = {
  authenticated: { limit: 1000, windowSec: 60 },
  public: { limit: 100, windowSec: 60 },
  predictionsList: { limit: 100, windowSec: 60 },
  predictionsTrade: { limit: 30, windowSec: 60 },
  perpOpen: { limit: 20, windowSec: 60 },
  perpClose: { limit: 30, windowSec: 60 },
  postsList: { limit: 100, windowSec: 60 },
  comment: { limit: 30, windowSec: 60 },
  like: { limit: 100, windowSec: 60 },
  share: { limit: 20, windowSec: 60 },
  upload: { limit: 10, windowSec: 60 },
  search: { limit: 60, windowSec: 60 },
  profileRead: { limit: 100, windowSec: 60 },
  /** "the service profile: 5 per minute": profile updates. */
  profileUpdate: { limit: 5, windowSec: 60 },
  follow: { limit: 30, windowSec: 60 },
  block: { limit: 10, windowSec: 60 },
  mute: { limit: 10, windowSec: 60 },
  report: { limit: 5, windowSec: 60 },
  /** Chat messages, not in the table: a lively conversation, not a flood (a burst in one chat is refused sooner, MESSAGE_FLOOD). */
  chatMessage: { limit: 60, windowSec: 60 },
  /** Opening direct chats and creating group chats, not in the table. */
  chatCreate: { limit: 20, windowSec: 60 },
  /** Pool deposits, withdrawals and NPC investing, not in the table: money moves, so as strict as a buy or sell. */
  poolTrade: { limit: 30, windowSec: 60 },
  /** Points transfers, not in the table: points are a second currency, as strict as a trade. (Awards are administrators': the general rule.) */
  pointsMove: { limit: 30, windowSec: 60 },
  /** A2A payment requests and receipts, not in the table: money moves, so as strict as a trade. */
  a2aPayment: { limit: 30, windowSec: 60 },
  /**
   * Verifications and bonuses, not in the table: linking a social account, verifying a share
   * (each may call an external verifier) and the waitlist bonuses.
   */
  verification: { limit: 10, windowSec: 60 },
  /** Reading uploaded images, not in the table: a feed page shows many, and they are cached for a year. */
  mediaRead: { limit: 1000, windowSec: 60 },
  /**
   * CORS preflights, not in the table: a browser sends one per new URL before the real request,
   * so they must not eat into the caller's public budget; generous, but still counted.
   */
  preflight: { limit: 1000, windowSec: 60 },
  /**
   * The bad-input budget, not in the table: requests refused as malformed (lib/operations/rate-limit.ts
   * `notePenalty`). Past it, a caller is answered 429 after a pause until the window ends, so a
   * flood of junk cannot keep the server busy. A client that validates its input never gets near.
   */
  badInput: { limit: 60, windowSec: 60 },
  /**
   * Web sign-in, not in the table: its own budget per address, so a visitor who browsed the public
   * pages (whose reads share the anonymous 100 a minute) can still sign in.
   */
  signIn: { limit: 30, windowSec: 60 },
  /** Agent sign-in, not in the table: strict, it guards a secret. */
  agentAuth: { limit: 10, windowSec: 60 },
} as const satisfies Record<string, { limit: number; windowSec: number }>;

export type TRateLimitRule = keyof typeof RATE_LIMITS;
