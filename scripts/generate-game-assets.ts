/**
 * Writes the shipped game assets (actor avatars, organization logos) under public/game-assets/
 * from lib/world/assets.ts. Deterministic: running it again rewrites the same bytes.
 * Run: npx tsx scripts/generate-game-assets.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { allGameAssetFiles } from '@/lib/world/assets';

const root = path.resolve(import.meta.dirname, '..', 'public');
for (const [rel, svg] of allGameAssetFiles()) {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, svg);
}
console.log(`wrote ${allGameAssetFiles().length} files under public/game-assets/`);
