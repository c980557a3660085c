import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import MarketImage, { contentType as marketContentType, size as marketSize } from '@/app/markets/[id]/opengraph-image';
import PostImage from '@/app/posts/[id]/opengraph-image';
import ProfileImage from '@/app/u/[username]/opengraph-image';
import { getDb } from '@/db/client';
import { users } from '@/db/schema';
import { seedUser } from '@/test/factories';
import { callerOfUser } from '@/lib/auth/caller';
import { createMarket } from '@/lib/markets/service/create-market';
import { cardText, compactNumber, postCardImage } from '@/lib/og/cards';
import { createPost } from '@/lib/posts/service/create-post';

// Nothing may be fetched from the network while drawing: the font is in the repository and text is
// reduced to it. (The layout engine loads its WebAssembly from a data: URL, which is fine.)
const realFetch = globalThis.fetch;
const networkFetches: string[] = [];
beforeAll(() => {
  globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.startsWith('data:')) return realFetch(input, init);
    networkFetches.push(url);
    throw new Error(`unexpected fetch of ${url}`);
  };
});
afterAll(() => {
  globalThis.fetch = realFetch;
});

const png = async (res: Response) => {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/png');
  const bytes = Buffer.from(await res.arrayBuffer());
  const meta = await sharp(bytes).metadata();
  expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'png', width: 1200, height: 630 });
  return bytes;
};

describe('share images', () => {
  it('draws a market card 1200x630 PNG', async () => {
    expect(marketSize).toEqual({ width: 1200, height: 630 });
    expect(marketContentType).toBe('image/png');
    const market = await createMarket({ caller: null, text: 'Will the share card render “offline” — with émojis 🚀 dropped?', resolutionDate: new Date(Date.now() + 7 * 86_400_000) });
    await png(await MarketImage({ params: Promise.resolve({ id: market.id }) }));
  });

  it('draws a profile card, and a generic card for someone who does not exist', async () => {
    const user = await seedUser({ displayName: 'Ada Lovelace 👩‍💻' });
    await (await getDb()).update(users).set({ bio: 'Analytical engines and prediction markets. 日本語 is not in the font.' }).where(eq(users.id, user.id));
    await png(await ProfileImage({ params: Promise.resolve({ username: user.username }) }));
    await png(await ProfileImage({ params: Promise.resolve({ username: 'nobody_here_123' }) }));
    await png(await (await import('@/app/markets/[id]/opengraph-image')).default({ params: Promise.resolve({ id: 'no-such-market' }) }));
  });

  it('draws a post card: long content, big counts, a real post and a missing one', async () => {
    await png(await postCardImage({ authorName: 'Grace', username: 'grace_h', content: 'x'.repeat(500), likes: 12_345, comments: 7, shares: 1_500_000 }));
    const author = await seedUser({ displayName: 'Grace Hopper' });
    const { post } = await createPost({ caller: callerOfUser(author), content: 'Debugging the market maker today #bugs', type: 'post' });
    await png(await PostImage({ params: Promise.resolve({ id: post.id }) }));
    await png(await PostImage({ params: Promise.resolve({ id: 'no-such-post' }) }));
    expect(networkFetches).toEqual([]);
  });
});

describe('card text', () => {
  it('keeps what the bundled font covers and shortens with an ellipsis', () => {
    expect(cardText('  Hello\n\nworld 🚀 “ok” — café  ')).toBe('Hello world “ok” — café');
    expect(cardText('abcdef', 4)).toBe('abc…');
    expect(cardText(null)).toBe('');
    expect(compactNumber(1234)).toBe('1,234');
    expect(compactNumber(1_500_000)).toBe('1.5M');
    expect(compactNumber(250_000)).toBe('250K');
  });
});
