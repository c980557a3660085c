/**
 * What a share verification must show before any platform is asked, pure (no I/O):
 *   - the post is the player's: its URL names their linked handle on that platform as a path
 *     segment (https://<host>/<handle>/…/<post id> or /@<handle>/…, any case);
 *   - the URL is the post's: its post id is a path segment too, so one URL cannot stand for
 *     many post ids (each post id is the key of at most one share reward, ever);
 *   - the day's budget: SHARE_VERIFICATIONS_PER_DAY per player per UTC day of game time.
 */

/** Share verifications a player may make per UTC day of game time (the day starts at 00:00 UTC). */
export const SHARE_VERIFICATIONS_PER_DAY = 3;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of game time `at` falls in: [start, end). */
export function utcDayOf(at: Date) {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  return { start, end: new Date(start.getTime() + DAY_MS) };
}

const normalHandle = (h: string) => h.trim().replace(/^@/, '').toLowerCase();

const pathSegments = (url: string): string[] | null => {
  try {
    return new URL(url).pathname
      .split('/')
      .filter(Boolean)
      .map((s) => {
        try {
          return decodeURIComponent(s);
        } catch {
          return s;
        }
      });
  } catch {
    return null;
  }
};

export type TShareUrlVerdict = { ok: true } | { ok: false; problem: 'not_by_handle' | 'post_id_missing' };

/** Whether `url` is the post `postId` by `handle` (see the header). */
export function checkShareUrl(input: { url: string; postId: string; handle: string }): TShareUrlVerdict {
  const segments = pathSegments(input.url);
  if (!segments) return { ok: false, problem: 'post_id_missing' };
  const handle = normalHandle(input.handle);
  if (!handle || !segments.some((s) => normalHandle(s) === handle)) return { ok: false, problem: 'not_by_handle' };
  if (!segments.includes(input.postId.trim())) return { ok: false, problem: 'post_id_missing' };
  return { ok: true };
}

/** Whether an author a platform reported is the linked handle (any case, a leading @ ignored). */
export function isSameHandle(a: string, b: string) {
  return normalHandle(a) === normalHandle(b);
}
