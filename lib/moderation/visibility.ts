/**
 * Who sees and reaches whom: the one place that decides it. Every query that selects posts,
 * comments, messages or notifications for a person calls one of these predicates (a structure
 * test, lib/moderation/visibility.structure.test.ts, refuses a file that does not), and every
 * write that reaches another person (follow, reply, mention, like, share, message) asks
 * `blockBetween` first (lib/moderation/reach.ts, or the predicate inside the write's own SQL).
 *
 * The rules:
 *   - a block, in either direction, hides each from the other (posts, comments, reposts,
 *     notifications, search, lists) and stops them reaching each other;
 *   - a mute, one way, hides the muted user's posts, comments and notifications from the muter
 *     only; the muted user sees and does everything as before and is never told;
 *   - a banned user's content leaves everyone's feeds but their own.
 *
 * Shape of the SQL: every "may see" predicate is a conjunction of `not exists` probes, one per
 * direction and table (never one `exists` with an `or` inside, never `x is null or …`), so that
 * PostgreSQL can plan each as an anti-join: a probe of blocks_pair_idx, mutes_pair_idx or the
 * users primary key per row in a short page, a hashed anti-join over a whole feed's count.
 *
 * Pure SQL builders over the schema: no I/O, no imports beyond the schema and drizzle, so any
 * layer may use it without a cycle.
 */
import { sql, type SQL } from 'drizzle-orm';
import { blocks, mutes, users } from '@/db/schema';

/** A caller id as SQL (anonymous callers match no block and no mute). */
const idOf = (callerId: string | null): SQL => sql`${callerId ?? ''}`;

/** `blocker` has blocked `blocked` (one direction). */
const blocked = (blocker: SQL, blockedCol: SQL): SQL =>
  sql`exists (select 1 from ${blocks} bk where bk.blocker_id = ${blocker} and bk.blocked_id = ${blockedCol})`;

/** A block stands between `a` and `b`, in either direction. */
export function blockBetween(a: SQL, b: SQL): SQL {
  return sql`(${blocked(a, b)} or ${blocked(b, a)})`;
}

/** No block between `a` and `b`: the negation of `blockBetween` as two anti-joinable probes. */
const noBlockBetween = (a: SQL, b: SQL): SQL => sql`not ${blocked(a, b)} and not ${blocked(b, a)}`;

/** `muterId` has muted `mutedCol`. */
const mutedBy = (mutedCol: SQL, muterId: SQL): SQL => sql`exists (select 1 from ${mutes} mu where mu.muter_id = ${muterId} and mu.muted_id = ${mutedCol})`;

/** The author is banned (and is not the caller, who still sees their own content). */
const bannedAuthor = (authorCol: SQL, callerId: string | null): SQL =>
  sql`exists (select 1 from ${users} bu where bu.id = ${authorCol} and bu.is_banned and bu.id <> ${idOf(callerId)})`;

/**
 * Content by `authorCol` (a post, a repost, a comment, a share) may be shown to `callerId`: no
 * block either way, not muted by the caller, the author not banned. Anonymous callers only lose
 * banned authors.
 */
export function canSee(authorCol: SQL, callerId: string | null): SQL {
  if (!callerId) return sql`not ${bannedAuthor(authorCol, null)}`;
  const me = idOf(callerId);
  return sql`(${noBlockBetween(authorCol, me)} and not ${mutedBy(authorCol, me)} and not ${bannedAuthor(authorCol, callerId)})`;
}

/**
 * A user row (`userCol`, e.g. in search, follower lists, who liked a post) may be listed to
 * `callerId`: no block either way. Mutes do not hide people, only what they post.
 */
export function canSeeUser(userCol: SQL, callerId: string | null): SQL {
  return callerId ? sql`(${noBlockBetween(userCol, idOf(callerId))})` : sql`true`;
}

/**
 * A notification caused by `actorCol` may reach, or be shown to, `recipientCol`: no block either
 * way and not muted by the recipient. System notifications (a null actor) always pass: `= null`
 * is never true, so no probe matches them, without an `is null or` that would stop the planner
 * from anti-joining.
 */
export function canNotify(recipientCol: SQL, actorCol: SQL): SQL {
  return sql`(${noBlockBetween(actorCol, recipientCol)} and not ${mutedBy(actorCol, recipientCol)})`;
}

/**
 * The ids whose content `callerId` must not see: everyone in a block with them (either way) and
 * everyone they muted. For filters outside SQL (the live feed of one subscriber; banned users
 * write nothing, so they need no live filter).
 */
export function hiddenAuthorsQuery(callerId: string): SQL {
  return sql`
  select bk.blocked_id as id from ${blocks} bk where bk.blocker_id = ${callerId}
  union select bk.blocker_id from ${blocks} bk where bk.blocked_id = ${callerId}
  union select mu.muted_id from ${mutes} mu where mu.muter_id = ${callerId}`;
}

/**
 * Every author whose content canSee hides from `callerId` (null: anonymous), as one set of ids:
 * banned authors but the caller, and for a signed-in caller the hiddenAuthorsQuery set. For
 * readers that subtract kept per-author counts instead of filtering rows (the feed's total).
 */
export function unseenAuthorsQuery(callerId: string | null): SQL {
  const banned = sql`select bu.id from ${users} bu where bu.is_banned and bu.id <> ${idOf(callerId)}`;
  return callerId ? sql`${banned} union ${hiddenAuthorsQuery(callerId)}` : banned;
}

/** One row `{blocked: boolean}`: whether a block stands between the two users, either way. */
export function blockBetweenQuery(a: string, b: string): SQL {
  return sql`select ${blockBetween(sql`${a}`, sql`${b}`)} as blocked`;
}
