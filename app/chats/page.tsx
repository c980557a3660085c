import type { Metadata } from 'next';
import { NoChatOpen } from '@/components/chats/chats-shell';

export const metadata: Metadata = { title: 'Chats' };

/** The list is the page (the layout's); wide screens show this beside it until a chat is opened. */
export default function ChatsPage() {
  return <NoChatOpen />;
}
