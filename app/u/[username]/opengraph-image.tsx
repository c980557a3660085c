import { CARD_CONTENT_TYPE, CARD_SIZE } from '@/lib/og/cards';
import { profileCardImage } from '@/lib/og/images';

export const alt = 'A player on Playmoney';
export const size = CARD_SIZE;
export const contentType = CARD_CONTENT_TYPE;

export default async function Image({ params }: { params: Promise<{ username: string }> }) {
  const { username } = await params;
  return profileCardImage(username);
}
