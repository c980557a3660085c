/**
 * Post and comment text rules, pure and browser-safe (the composer and the server share them):
 * length as a person counts it (grapheme clusters, so an emoji or a flag is one), #tags and
 * @mentions, and the trending scores.
 *
 * Cost: every rule here is linear in its input, and the request schemas cap the raw length
 * (lib/contracts/common.ts zText) before any of them runs. Not Intl.Segmenter: in this runtime
 * its grapheme iteration is quadratic (64,000 characters took over a second, 256,000 a minute),
 * so one large post could hold the server's CPU for minutes. unicode-segmenter implements the
 * same Unicode rules (UAX #29) in one pass.
 */
import { countGraphemes } from 'unicode-segmenter/grapheme';

export const POST_MAX_CHARS = 280;
export const COMMENT_MIN_CHARS = 10;
export const COMMENT_MAX_CHARS = 2000;
export const QUOTE_MAX_CHARS = 280;

/** Characters as a reader sees them: "👍🏽" and "🇫🇷" are one each. Linear in the length. */
export const visibleLength = (s: string): number => countGraphemes(s);

/** A #tag: group 2 is the tag. Global: use with matchAll. */
export const TAG_PATTERN = /(^|[^\p{L}\p{N}_&])#([\p{L}\p{N}_]{1,50})/gu;
/** An @mention: group 2 is the username. Global: use with matchAll. */
export const MENTION_PATTERN = /(^|[^\p{L}\p{N}_@])@([A-Za-z0-9_]{3,20})(?![A-Za-z0-9_])/gu;

/** Distinct tags of a text, lower case, without '#', in order of appearance. */
export const parseTags = (text: string): string[] => [...new Set([...text.matchAll(TAG_PATTERN)].map((m) => m[2]!.toLowerCase()))];

/** Distinct usernames mentioned in a text, lower case, without '@'. */
export const parseMentions = (text: string): string[] => [...new Set([...text.matchAll(MENTION_PATTERN)].map((m) => m[2]!.toLowerCase()))];

/**
 * Trending posts: engagement over age with a time decay (Hacker-News style), so a fresh post with
 * a few likes can outrank an old one with many. Comments and shares weigh more than likes.
 */
export const postTrendScore = (p: { likes: number; comments: number; shares: number; ageHours: number }) =>
  (1 + p.likes + 2 * p.comments + 3 * p.shares) / Math.pow(Math.max(0, p.ageHours) + 2, 1.5);

/** Half-life of a tag use for trending tags: a use a day old counts half. */
export const TAG_HALF_LIFE_HOURS = 24;

/** The weight of one tag use of a given age. */
export const tagUseWeight = (ageHours: number) => Math.pow(0.5, Math.max(0, ageHours) / TAG_HALF_LIFE_HOURS);
