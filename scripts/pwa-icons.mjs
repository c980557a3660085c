/**
 * Writes the install icons of the web app manifest (app/manifest.ts) from app/icon.svg:
 * public/icons/icon-192.png, icon-512.png and maskable-512.png. Run after changing the icon:
 * `node scripts/pwa-icons.mjs`. Also app/apple-icon.png (180 px, full-bleed: iOS rounds it itself),
 * which Next.js links as the apple-touch-icon. Uses sharp (already a dependency); downloads nothing.
 *
 * The maskable icon fills the whole square with the icon's colour and keeps the glyph inside
 * the central 60 %, so a launcher's circle or squircle mask never cuts it (the safe zone is
 * the central circle of 80 % diameter).
 */
import { readFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'public', 'icons');

/** The glyph of app/icon.svg without its rounded background, on a full-bleed square. */
function maskableSvg(svg) {
  const inner = svg.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '').replace(/<rect[^>]*\/>/, '');
  const fill = /<rect[^>]*fill="([^"]+)"/.exec(svg)?.[1] ?? '#8b93ff';
  // 32-unit viewBox; the glyph scaled to 60 % and centred.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 32 32"><rect width="32" height="32" fill="${fill}"/><g transform="translate(6.4 6.4) scale(0.6)">${inner}</g></svg>`;
}

const svg = await readFile(path.join(root, 'app', 'icon.svg'), 'utf8');
await mkdir(outDir, { recursive: true });
for (const size of [192, 512]) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 32 }).resize(size, size).png().toFile(path.join(outDir, `icon-${size}.png`));
}
await sharp(Buffer.from(maskableSvg(svg)), { density: 72 }).resize(512, 512).png().toFile(path.join(outDir, 'maskable-512.png'));
await sharp(Buffer.from(maskableSvg(svg).replace('scale(0.6)', 'scale(0.75)').replace('translate(6.4 6.4)', 'translate(4 4)')), { density: 72 })
  .resize(180, 180)
  .png()
  .toFile(path.join(root, 'app', 'apple-icon.png'));
console.log('wrote public/icons/icon-192.png, icon-512.png, maskable-512.png and app/apple-icon.png');
