/**
 * Page metadata that goes with the share images: an absolute metadataBase (so og:image is a full
 * URL of this site, not Next's localhost fallback), a title and description from the data, and the
 * large-image Twitter card. The og:image itself comes from each page's opengraph-image file.
 */
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getPrediction } from '@/lib/markets/service/read-markets';
import { getPool } from '@/lib/pools/service/read';
import { getPost } from '@/lib/posts/service/read-posts';
import { publicOrigin } from '@/lib/system/public-origin';
import { getProfileByUsername } from '@/lib/users/service/read-profile';
import { orNull } from './or-null';

const metadataBase = async () => new URL(publicOrigin(await headers()));

/** The root layout's metadataBase (PUBLIC_BASE_URL, else this request's origin), so no page falls back to localhost. */
export const siteMetadataBase = metadataBase;

const base = async (title: string, description?: string): Promise<Metadata> => ({
  metadataBase: await metadataBase(),
  title,
  description,
  openGraph: { title, description, siteName: 'Playmoney' },
  twitter: { card: 'summary_large_image', title, description },
});

export async function marketMetadata(id: string): Promise<Metadata> {
  const found = await orNull(getPrediction(id));
  if (!found) return base('Market');
  const m = found.market;
  return base(m.question, `${Math.round(m.yesPrice * 100)}% YES · trade it with play money on Playmoney`);
}

export async function poolMetadata(id: string): Promise<Metadata> {
  const found = await orNull(getPool({ caller: null, poolId: id, range: '24h' }));
  if (!found) return base('Pool');
  const p = found.pool;
  const manager = p.manager.displayName || p.manager.username;
  return base(p.name, `Tier ${p.tier} trading pool managed by ${manager} · ${p.description || 'invest with play money on Playmoney'}`);
}

export async function profileMetadata(username: string): Promise<Metadata> {
  const user = await orNull(getProfileByUsername({ caller: null, username }));
  if (!user) return base(`@${username}`);
  const name = user.displayName || user.username;
  return base(`${name} (@${user.username})`, user.bio ?? `${name} trades with play money on Playmoney`);
}

export async function postMetadata(id: string): Promise<Metadata> {
  const found = await orNull(getPost({ caller: null, postId: id }));
  if (!found) return base('Post');
  const p = found.post;
  const name = p.author.displayName || p.author.username;
  return base(`${name} (@${p.author.username})`, p.content);
}
