/**
 * Game assets: actor avatars and organization logos, drawn as SVG from a hash of the name. Pure:
 * no I/O, no randomness, so the same name always gives the same picture. The files under
 * public/game-assets/ are this module's output, written by scripts/generate-game-assets.ts and
 * committed (nothing is fetched or drawn at run time); a unit test keeps them in step.
 *
 * Actors and organizations outside the seeded world (the benchmark's extra NPCs, say) have no
 * file of their own: they get one of GENERIC_COUNT shipped generic pictures, picked by hash.
 */
import { ACTORS, ORGANIZATIONS } from './seed/world-data';

export const GAME_ASSETS_BASE = '/game-assets';
export const GENERIC_COUNT = 8;

/** FNV-1a, 32 bits: a stable number from a name (the same function the game RNG seeds with). */
export function hashName(s: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Up to two initials: "Ada Vance" → "AV", "ada_vance" → "AV", "Nexa" → "NE". */
export function initialsOf(name: string) {
  const words = name.split(/[\s_.-]+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length === 0) return '?';
  const first = [...words[0]!];
  if (words.length === 1) return first.slice(0, 2).join('').toUpperCase();
  return (first[0]! + [...words[words.length - 1]!][0]!).toUpperCase();
}

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

const hsl = (h: number, s: number, l: number) => `hsl(${h % 360} ${s}% ${l}%)`;

/** A round-ish 128×128 avatar: two-hue gradient, a geometric accent and the initials. */
export function renderAvatarSvg(name: string) {
  const h = hashName(name);
  const hue = h % 360;
  const hue2 = (hue + 40 + ((h >>> 9) % 80)) % 360;
  const shape = (h >>> 17) % 3;
  const cx = 24 + ((h >>> 5) % 80);
  const cy = 24 + ((h >>> 11) % 80);
  const accent =
    shape === 0
      ? `<circle cx="${cx}" cy="${cy}" r="${28 + ((h >>> 3) % 24)}" fill="${hsl(hue2, 70, 70)}" opacity="0.45"/>`
      : shape === 1
        ? `<rect x="${cx - 30}" y="${cy - 30}" width="60" height="60" rx="10" transform="rotate(${(h >>> 13) % 90} ${cx} ${cy})" fill="${hsl(hue2, 70, 70)}" opacity="0.45"/>`
        : `<polygon points="${cx},${cy - 36} ${cx + 34},${cy + 26} ${cx - 34},${cy + 26}" fill="${hsl(hue2, 70, 70)}" opacity="0.45"/>`;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">',
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hsl(hue, 65, 45)}"/><stop offset="1" stop-color="${hsl(hue2, 65, 35)}"/></linearGradient></defs>`,
    '<rect width="128" height="128" rx="64" fill="url(#g)"/>',
    accent,
    `<text x="64" y="64" dy="0.35em" text-anchor="middle" font-family="Inter, system-ui, sans-serif" font-size="46" font-weight="700" fill="#fff">${escapeXml(initialsOf(name))}</text>`,
    '</svg>',
    '',
  ].join('\n');
}

/** A 128×128 logo: a rounded tile, a 3×3 pattern of cells picked by hash, and the ticker. */
export function renderLogoSvg(ticker: string, name: string) {
  const h = hashName(`${ticker}:${name}`);
  const hue = h % 360;
  const cells: string[] = [];
  for (let i = 0; i < 9; i++) {
    if (((h >>> i) & 1) === 0) continue;
    const x = 22 + (i % 3) * 30;
    const y = 14 + Math.floor(i / 3) * 22;
    cells.push(`<rect x="${x}" y="${y}" width="24" height="16" rx="4" fill="${hsl(hue + 180, 60, 80)}" opacity="0.55"/>`);
  }
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">',
    `<rect width="128" height="128" rx="24" fill="${hsl(hue, 55, 30)}"/>`,
    ...cells,
    `<text x="64" y="106" text-anchor="middle" font-family="Inter, system-ui, sans-serif" font-size="${ticker.length > 4 ? 22 : 28}" font-weight="800" letter-spacing="1" fill="#fff">${escapeXml(ticker.slice(0, 6))}</text>`,
    '</svg>',
    '',
  ].join('\n');
}

const SEEDED_ACTORS = new Set<string>(ACTORS.map((a) => a.slug));
const SEEDED_TICKERS = new Set<string>(ORGANIZATIONS.map((o) => o.ticker));

/** The shipped avatar of an actor: its own for a seeded actor, a generic one otherwise. */
export function actorAvatarUrl(username: string) {
  return SEEDED_ACTORS.has(username)
    ? `${GAME_ASSETS_BASE}/actors/${username}.svg`
    : `${GAME_ASSETS_BASE}/actors/generic-${(hashName(username) % GENERIC_COUNT) + 1}.svg`;
}

/** The shipped logo of an organization: its own for a seeded ticker, a generic one otherwise. */
export function organizationLogoUrl(ticker: string) {
  return SEEDED_TICKERS.has(ticker)
    ? `${GAME_ASSETS_BASE}/organizations/${ticker}.svg`
    : `${GAME_ASSETS_BASE}/organizations/generic-${(hashName(ticker) % GENERIC_COUNT) + 1}.svg`;
}

/** Every file the generator writes, as [path under public/, SVG text]. */
export function allGameAssetFiles(): [string, string][] {
  const files: [string, string][] = [];
  for (const a of ACTORS) files.push([`game-assets/actors/${a.slug}.svg`, renderAvatarSvg(a.name)]);
  for (const o of ORGANIZATIONS) files.push([`game-assets/organizations/${o.ticker}.svg`, renderLogoSvg(o.ticker, o.name)]);
  const greek = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta', 'Eta', 'Theta'];
  for (let i = 1; i <= GENERIC_COUNT; i++) {
    files.push([`game-assets/actors/generic-${i}.svg`, renderAvatarSvg(`${greek[i - 1]} Actor`)]);
    files.push([`game-assets/organizations/generic-${i}.svg`, renderLogoSvg(greek[i - 1]!.slice(0, 4).toUpperCase(), `${greek[i - 1]} Org`)]);
  }
  return files;
}
