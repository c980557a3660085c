'use client';

import { useRouter } from 'next/navigation';
import { Modal } from '@/components/moderation/modal';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/error-state';
import { CHAT_ERROR_MESSAGES, useLeaveChat, type TChat } from '@/lib/client/queries/chats';
import { describeError } from '@/lib/client/queries/errors';
import { chatTitle } from './format';

/** "Leave chat?" confirmed in a dialog; leaving goes back to the chat list. */
export const LeaveChatDialog = ({ chat, onClose }: { chat: Pick<TChat, 'id' | 'name' | 'isGroup' | 'otherUser'>; onClose: () => void }) => {
  const router = useRouter();
  const leave = useLeaveChat();
  const description = chat.isGroup
    ? 'You stop getting its messages and it leaves your chats. Only someone in it can bring you back.'
    : `It leaves your chats. If you or ${chat.otherUser ? `@${chat.otherUser.username}` : 'they'} write again, it comes back with its history.`;
  return (
    <Modal title={`Leave ${chatTitle(chat)}?`} description={description} onClose={onClose}>
      <div className="flex flex-col gap-4">
        {leave.isError && <Notice tone="error">{describeError(leave.error, CHAT_ERROR_MESSAGES)}</Notice>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" isLoading={leave.isPending} onClick={() => leave.mutate(chat.id, { onSuccess: () => router.push('/chats') })}>
            Leave chat
          </Button>
        </div>
      </div>
    </Modal>
  );
};
