/**
 * The feed's filters (GET /api/posts `filter`), shared by the contract, the service and the
 * browser. Pure, no I/O.
 * - `everyone`: every post (the default);
 * - `players`: no NPC actor's posts (users.is_actor), nor, in the following feed, an NPC's repost;
 * - `mine`: posts about a market or a ticker the caller holds or has an open order in;
 * - `following`: the posts and reposts of the users the caller follows.
 * `mine` and `following` need a signed-in caller (401 otherwise).
 */
export const FEED_FILTERS = ['everyone', 'players', 'mine', 'following'] as const;

export type TFeedFilterName = (typeof FEED_FILTERS)[number];

/**
 * What the home feed shows (its tabs, `?filter=` in the URL): the four filters and the favorites
 * feed (GET /api/posts/feed/favorites). Only `everyone` and `players` are open to a guest.
 */
export const FEED_VIEWS = ['everyone', 'players', 'mine', 'following', 'favorites'] as const;

export type TFeedView = (typeof FEED_VIEWS)[number];

export function feedViewNeedsSignIn(v: TFeedView) {
  return v !== 'everyone' && v !== 'players';
}

/**
 * The view a URL names: `?filter=` (any of FEED_VIEWS), else the older switches `?held=1` (mine) and
 * `?hideNpcs=1` (players) so shared links keep working, else `everyone`.
 */
export function parseFeedView(params: { get(name: string): string | null }): TFeedView {
  const f = params.get('filter');
  if (f && (FEED_VIEWS as readonly string[]).includes(f)) return f as TFeedView;
  const on = (v: string | null) => v === '1' || v === 'true';
  if (on(params.get('held'))) return 'mine';
  if (on(params.get('hideNpcs'))) return 'players';
  return 'everyone';
}

/** The search string for a view, keeping the URL's other parameters (`everyone` leaves no `filter`; the older switches go). */
export function feedViewSearch(current: string, view: TFeedView): string {
  const params = new URLSearchParams(current);
  params.delete('hideNpcs');
  params.delete('held');
  if (view === 'everyone') params.delete('filter');
  else params.set('filter', view);
  const s = params.toString();
  return s ? `?${s}` : '';
}
