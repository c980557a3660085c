import { CARD_CONTENT_TYPE, CARD_SIZE } from '@/lib/og/cards';
import { marketCardImage } from '@/lib/og/images';

export const alt = 'A prediction market on Playmoney';
export const size = CARD_SIZE;
export const contentType = CARD_CONTENT_TYPE;

export default async function Image({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return marketCardImage(id);
}
