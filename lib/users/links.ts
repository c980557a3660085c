/**
 * The address of a user's profile page, shared by the server and the browser (pure). Every link
 * to a profile is built here, so the route (`app/u/[username]`) is spelled once and the username is
 * always encoded: usernames are letters, digits and underscores today, where encoding changes
 * nothing, but a mention's text or an older name must not be able to reshape the address.
 */

/** The profile page of `user`, a path on this site (`/u/<username>`); absolute links prefix the origin. */
export function profileHref(user: { username: string }): string {
  return `/u/${encodeURIComponent(user.username)}`;
}
