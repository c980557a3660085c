import { Avatar } from '@/components/ui/avatar';
import { cn } from '@/components/ui/cn';
import type { TChat } from '@/lib/client/queries/chats';
import { chatTitle, personName } from './format';

/**
 * A chat's picture: the other person's avatar in a direct chat, two members' avatars overlapping
 * in a group chat. Decorative: the chat's name is always written beside it.
 */
export const ChatAvatar = ({ chat, myUserId, size = 'md' }: { chat: Pick<TChat, 'isGroup' | 'name' | 'otherUser' | 'participants'>; myUserId: string | undefined; size?: 'sm' | 'md' }) => {
  if (!chat.isGroup) {
    const other = chat.otherUser;
    return (
      <span aria-hidden="true" className="shrink-0">
        <Avatar src={other?.profileImageUrl} name={other ? personName(other) : chatTitle(chat)} size={size} />
      </span>
    );
  }
  const others = chat.participants.filter((p) => p.id !== myUserId).slice(0, 2);
  if (others.length < 2) {
    return (
      <span aria-hidden="true" className="shrink-0">
        <Avatar src={others[0]?.profileImageUrl} name={others[0] ? personName(others[0]) : chatTitle(chat)} size={size} />
      </span>
    );
  }
  const box = size === 'sm' ? 'size-8' : 'size-10';
  return (
    <span aria-hidden="true" className={cn('relative shrink-0', box)}>
      <Avatar src={others[0]!.profileImageUrl} name={personName(others[0]!)} size="sm" className={cn('absolute top-0 left-0', size === 'sm' && 'size-6 text-[10px]')} />
      <Avatar
        src={others[1]!.profileImageUrl}
        name={personName(others[1]!)}
        size="sm"
        className={cn('absolute right-0 bottom-0 ring-2 ring-surface', size === 'sm' && 'size-6 text-[10px]')}
      />
    </span>
  );
};
