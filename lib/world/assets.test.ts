import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actorAvatarUrl, allGameAssetFiles, initialsOf, organizationLogoUrl, renderAvatarSvg, renderLogoSvg } from './assets';

const publicDir = path.resolve(import.meta.dirname, '..', '..', 'public');

describe('game assets', () => {
  it('the committed files are exactly what the generator draws (run scripts/generate-game-assets.ts after a change)', () => {
    for (const [rel, svg] of allGameAssetFiles()) {
      const file = path.join(publicDir, rel);
      expect(fs.existsSync(file), rel).toBe(true);
      expect(fs.readFileSync(file, 'utf8'), rel).toBe(svg);
    }
  });

  it('every URL handed out points at a shipped file, seeded or generic', () => {
    for (const url of [actorAvatarUrl('ada_vance'), actorAvatarUrl('bench_npc_17'), organizationLogoUrl('NEXA'), organizationLogoUrl('ZZZZ')]) {
      expect(fs.existsSync(path.join(publicDir, url)), url).toBe(true);
    }
    expect(actorAvatarUrl('ada_vance')).toBe('/game-assets/actors/ada_vance.svg');
    expect(actorAvatarUrl('bench_npc_17')).toMatch(/^\/game-assets\/actors\/generic-[1-8]\.svg$/);
  });

  it('initials: two for two words, two letters of one word, never empty', () => {
    expect(initialsOf('Ada Vance')).toBe('AV');
    expect(initialsOf('ada_vance')).toBe('AV');
    expect(initialsOf('Nexa')).toBe('NE');
    expect(initialsOf('  ')).toBe('?');
  });

  it('drawing is deterministic and escapes any name into well-formed SVG', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (name) => {
        const a = renderAvatarSvg(name);
        expect(renderAvatarSvg(name)).toBe(a);
        const logo = renderLogoSvg(name.slice(0, 6), name);
        for (const svg of [a, logo]) {
          expect(svg.startsWith('<svg')).toBe(true);
          // Markup characters of the name never reach the document unescaped.
          const text = svg.match(/<text[^>]*>([^<]*)<\/text>/)![1]!;
          expect(text).not.toMatch(/[<>"']|&(?!(lt|gt|amp|apos|quot);)/);
        }
      }),
    );
  });
});
