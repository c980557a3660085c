/**
 * Which image URLs the service stores (a post's `imageUrl`, `profileImageUrl`, `coverImageUrl`):
 * never one that points back into the service. Every reader's browser fetches a stored image with
 * the reader's cookies, so an image field holding `/api/auth/onboard?…` or
 * `https://<our host>/api/users/me` would make every reader call the API (cross-site request
 * forgery through an <img>). Accepted, and nothing else:
 *
 *   - this service's uploads, `/api/uploads/<key>` (the key as lib/uploads/storage.ts writes it: a
 *     flat name, no query, no `..`, no percent-encoding), relative or absolute on its own origin;
 *   - the bundled static images under public/: the built-in avatars `/avatars/<name>.svg` and the
 *     world's `/game-assets/actors/<name>.svg` and `/game-assets/organizations/<name>.svg` (the NPC
 *     avatars and logos). They are files, never a route, so fetching one changes nothing;
 *   - an `https` URL on another origin: printable ASCII, a plain host name (no credentials), no dot
 *     segments or encoded slashes in its path.
 *
 * Our own origin is PUBLIC_BASE_URL's host (any port or scheme: cookies ignore both): there only the
 * two shapes above pass. Without PUBLIC_BASE_URL the service does not know its host, so an
 * absolute URL of those shapes passes on any host (http too: a development server's own uploads),
 * and a path under `/api` is refused on every host.
 *
 * The rule is regular expressions over the raw text only (no URL parsing, which normalises), so
 * migration 0018 clears stored rows with the same rule written in SQL (test/api/image-urls.int.test.ts
 * holds the two equal). Pure apart from reading PUBLIC_BASE_URL: the contracts, bundled for the
 * browser too, use it.
 */
import { env } from '@/lib/env';

/** An upload's key: the storage key pattern of lib/uploads/storage.ts (image-url.test.ts holds them equal). */
const KEY = '[A-Za-z0-9][A-Za-z0-9_-]*(?:\\.[A-Za-z0-9]+)?';
const NAME = '[A-Za-z0-9_-]+';
/** The paths of this service an image may have: an upload, a built-in avatar, a world asset. */
const OWN_PATH = `/(?:api/uploads/${KEY}|avatars/${NAME}\\.svg|game-assets/(?:actors|organizations)/${NAME}\\.svg)`;
/** A plain host name with an optional port: no credentials, no IPv6 literal, no backslash. */
const HOST = '[A-Za-z0-9.-]+(?::[0-9]{1,5})?';
/** Printable ASCII without space and backslash (anything else must be percent-encoded). */
const URL_CHAR = '[\\x21-\\x5b\\x5d-\\x7e]';

const OWN_RELATIVE = new RegExp(`^${OWN_PATH}$`);
const ABSOLUTE = new RegExp(`^(https?)://(${HOST})((?:[/?#]${URL_CHAR}*)?)$`);
const OWN_REST = new RegExp(`^${OWN_PATH}$`);
/** A first path segment that spells `api` (any case, percent-encoded letters too). */
const API_PATH = /^\/+(?:[aA]|%61|%41)(?:[pP]|%70|%50)(?:[iI]|%69|%49)(?:[^A-Za-z0-9_-]|$)/;
/** A dot segment, or an encoded dot, slash or backslash, in the path. */
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;
const ENCODED_SEPARATOR = /%2[eEfF]|%5[cC]/;

export const IMAGE_URL_MAX = 2048;

/** The host an absolute image URL must match to count as this service's, from PUBLIC_BASE_URL (null: unknown). */
export function ownImageHost(publicBaseUrl: string | undefined = env().publicBaseUrl): string | null {
  if (!publicBaseUrl) return null;
  try {
    return new URL(publicBaseUrl).hostname.toLowerCase().replace(/\.+$/, '');
  } catch {
    return null;
  }
}

const hostOf = (authority: string) => authority.replace(/:[0-9]*$/, '').toLowerCase().replace(/\.+$/, '');

/**
 * Why `value` cannot be stored as an image URL, or null when it can. `''` (no image) can.
 * `ownHost`: this service's host (default: from PUBLIC_BASE_URL; null when unknown).
 */
export function imageUrlProblem(value: string, ownHost: string | null = ownImageHost()): string | null {
  if (value === '') return null;
  if (value.length > IMAGE_URL_MAX) return `must be at most ${IMAGE_URL_MAX} characters`;
  if (value.startsWith('/')) {
    return OWN_RELATIVE.test(value)
      ? null
      : 'a path on this service must be an upload (/api/uploads/<key>) or a bundled image (/avatars/<name>.svg, /game-assets/…/<name>.svg)';
  }
  const m = ABSOLUTE.exec(value);
  if (!m) {
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value)) return 'must not carry credentials';
    if (!/^https?:\/\//.test(value)) return 'must be an https URL or an upload of this service (/api/uploads/<key>)';
    return 'must be a plain URL: printable ASCII, a host name without credentials';
  }
  const [, scheme, authority, rest] = m as unknown as [string, string, string, string];
  const isOwnShape = OWN_REST.test(rest);
  if (ownHost !== null && hostOf(authority) === ownHost) {
    return isOwnShape ? null : 'points into this service: only its uploads (/api/uploads/<key>) and bundled images may be used';
  }
  if (isOwnShape && ownHost === null) return null;
  if (scheme !== 'https') return 'must be https';
  const path = rest.startsWith('/') ? rest.replace(/[?#].*$/, '') : '';
  if (DOT_SEGMENT.test(path) || ENCODED_SEPARATOR.test(path)) return 'must not contain dot segments or encoded slashes in its path';
  if (ownHost === null && API_PATH.test(path)) return 'points into an API (/api/…): only uploads (/api/uploads/<key>) may be used';
  return null;
}

/** Whether `value` may be stored as an image URL (see imageUrlProblem). */
export function isAllowedImageUrl(value: string, ownHost?: string | null) {
  return imageUrlProblem(value, ownHost) === null;
}
