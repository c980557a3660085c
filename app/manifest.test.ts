/**
 * The web app manifest (app/manifest.ts, served at /manifest.webmanifest): the fields a phone needs
 * to install the app, colours of the theme, and icons that exist under public/ with the sizes
 * they declare (read from each PNG's IHDR header), one of them maskable.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import manifest from './manifest';

const root = path.resolve(import.meta.dirname, '..');
const css = fs.readFileSync(path.join(root, 'app', 'globals.css'), 'utf8');
const themeColour = (name: string) => new RegExp(`--color-${name}:\\s*(#[0-9a-fA-F]{6});`).exec(css)?.[1];

/** Width and height from a PNG's header: the signature, then the IHDR chunk's first 8 bytes. */
const pngSize = (file: string) => {
  const buf = fs.readFileSync(file);
  expect(buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), `${file} is a PNG`).toBe(true);
  expect(buf.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
};

describe('web app manifest', () => {
  const m = manifest();

  it('installs as a standalone app that opens on the home page', () => {
    expect(m.name).toMatch(/Playmoney/);
    expect(m.short_name).toBe('Playmoney');
    expect(m.short_name!.length).toBeLessThanOrEqual(12);
    expect(m.start_url).toBe('/');
    expect(m.display).toBe('standalone');
  });

  it('takes its colours from the theme (canvas)', () => {
    expect(themeColour('canvas')).toBeDefined();
    expect(m.background_color).toBe(themeColour('canvas'));
    expect(m.theme_color).toBe(themeColour('canvas'));
  });

  it('lists 192 and 512 PNG icons and a maskable one, each on disk at the size it declares', () => {
    const icons = m.icons ?? [];
    const sizes = icons.map((i) => i.sizes);
    expect(sizes).toContain('192x192');
    expect(sizes).toContain('512x512');
    expect(icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of icons) {
      expect(icon.type).toBe('image/png');
      expect(icon.src.startsWith('/')).toBe(true);
      const file = path.join(root, 'public', ...icon.src.split('/').filter(Boolean));
      expect(fs.existsSync(file), icon.src).toBe(true);
      const [w, h] = icon.sizes!.split('x').map(Number);
      expect(pngSize(file)).toEqual({ width: w, height: h });
    }
  });

  it('has a service worker and an offline page to go with it', () => {
    const sw = fs.readFileSync(path.join(root, 'public', 'sw.js'), 'utf8');
    expect(sw).toContain("const OFFLINE_URL = '/offline'");
    // /api is never cached: the worker leaves it to the network.
    expect(sw).toMatch(/url\.pathname\.startsWith\('\/api\/'\)\) return true/);
    expect(fs.existsSync(path.join(root, 'app', 'offline', 'page.tsx'))).toBe(true);
  });
});
