import { CARD_CONTENT_TYPE, CARD_SIZE } from '@/lib/og/cards';
import { postImage } from '@/lib/og/images';

export const alt = 'A post on Playmoney';
export const size = CARD_SIZE;
export const contentType = CARD_CONTENT_TYPE;

export default async function Image({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return postImage(id);
}
