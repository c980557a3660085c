import type { Metadata } from 'next';
import { Conversation } from '@/components/chats/conversation';

type TProps = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: 'Chat' };

export default async function ChatPage({ params }: TProps) {
  const chatId = decodeURIComponent((await params).id);
  // Keyed by chat: moving to another chat starts its view (scroll, "New messages", draft) afresh.
  return <Conversation key={chatId} chatId={chatId} />;
}
