'use client';

import Link from 'next/link';
import { cn } from '@/components/ui/cn';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { ChatIcon } from '@/components/ui/icons';
import { RelativeTime } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { isChatInvitation, useChats, type TChat } from '@/lib/client/queries/chats';
import { describeError } from '@/lib/client/queries/errors';
import { ChatAvatar } from './chat-avatar';
import { ChatInvitationActions } from './chat-invitation';
import { rowUnreadCount } from './chats-unread';
import { chatTitle, personName, previewOf } from './format';

/** A chat's unread count as a pill; the number is read out with the row ("2 unread"). */
export const ChatUnreadPill = ({ count }: { count: number }) =>
  count > 0 ? (
    <span
      data-testid="chat-unread-badge"
      className="inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-accent px-1.5 text-[11px] leading-none font-semibold text-canvas tabular-nums"
    >
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className="sr-only">{count === 1 ? '1 unread message' : `${count} unread messages`}</span>
    </span>
  ) : null;

/**
 * An invitation to a group chat: not a link (nothing of the chat can be read yet), its name, who
 * invited the caller and when, and Accept / Decline.
 */
const InvitationRow = ({ chat, myUserId }: { chat: TChat; myUserId: string | undefined }) => (
  <li data-invitation="true" className="flex flex-col gap-2 rounded-xl border border-accent/30 bg-accent-soft/40 px-3 py-3">
    <span className="flex items-center gap-3">
      <ChatAvatar chat={chat} myUserId={myUserId} />
      <span className="min-w-0 flex-1">
        <span className="flex items-baseline gap-2">
          <span className="truncate text-sm font-semibold text-ink">{chatTitle(chat)}</span>
          <span className="shrink-0 rounded-full border border-accent/40 px-1.5 text-[11px] font-medium text-accent">Invitation</span>
        </span>
        <span className="mt-0.5 block truncate text-sm text-ink-muted">
          {chat.invitedBy ? `${personName(chat.invitedBy)} invited you` : 'You are invited'} <RelativeTime iso={chat.lastActivityAt} />
        </span>
      </span>
    </span>
    <ChatInvitationActions chatId={chat.id} title={chatTitle(chat)} className="items-end" />
  </li>
);

const ChatRow = ({ chat, myUserId, isActive }: { chat: TChat; myUserId: string | undefined; isActive: boolean }) => {
  // The open conversation shows no unread badge or weight while it is open (chats-unread.ts).
  const unread = rowUnreadCount(chat.unreadCount, isActive);
  const isUnread = unread > 0;
  return (
    <li>
      <Link
        href={`/chats/${encodeURIComponent(chat.id)}`}
        aria-current={isActive ? 'page' : undefined}
        data-unread={isUnread ? 'true' : undefined}
        className={cn(
          'flex items-center gap-3 rounded-xl px-3 py-3 transition-colors focus-visible:ring-2 focus-visible:ring-accent/50 focus-visible:outline-none',
          isActive ? 'bg-accent-soft' : 'hover:bg-elevated',
        )}
      >
        <ChatAvatar chat={chat} myUserId={myUserId} />
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline gap-2">
            <span className={cn('truncate text-sm text-ink', isUnread ? 'font-semibold' : 'font-medium')}>{chatTitle(chat)}</span>
            {chat.isGroup && <span className="sr-only">(group chat)</span>}
            <RelativeTime iso={chat.lastMessage?.createdAt ?? chat.lastActivityAt} className="ml-auto shrink-0 text-xs text-ink-faint" />
          </span>
          <span className="mt-0.5 flex items-center gap-2">
            <span className={cn('min-w-0 flex-1 truncate text-sm', isUnread ? 'text-ink' : 'text-ink-muted')}>{previewOf(chat, myUserId)}</span>
            <ChatUnreadPill count={unread} />
          </span>
        </span>
      </Link>
    </li>
  );
};

/** The signed-in user's chats, newest activity first (invitations with Accept and Decline); the open one is marked. */
export const ChatList = ({ myUserId, activeChatId, onNewGroupChat }: { myUserId: string | undefined; activeChatId: string | null; onNewGroupChat?: () => void }) => {
  const chats = useChats();

  if (chats.isPending) {
    return (
      <div role="status" aria-label="Loading chats" className="flex flex-col gap-2">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="flex items-center gap-3 px-3 py-3">
            <Skeleton className="size-10 rounded-full" />
            <div className="flex flex-1 flex-col gap-2">
              <Skeleton className="h-3.5 w-32" />
              <Skeleton className="h-3 w-48 max-w-full" />
            </div>
          </div>
        ))}
      </div>
    );
  }
  if (chats.isError) return <ErrorState message={describeError(chats.error)} onRetry={() => chats.refetch()} isRetrying={chats.isFetching} />;
  if (chats.data.chats.length === 0) {
    return (
      <EmptyState
        icon={<ChatIcon />}
        title="No conversations yet"
        description="Open a player’s profile and press Message, join a group, or start a group chat."
        action={
          onNewGroupChat ? (
            <button type="button" onClick={onNewGroupChat} className="text-sm font-medium text-accent hover:underline">
              Start a group chat
            </button>
          ) : undefined
        }
      />
    );
  }
  return (
    <nav aria-label="Conversations">
      <ul className="flex flex-col gap-0.5">
        {chats.data.chats.map((chat) =>
          isChatInvitation(chat) ? (
            <InvitationRow key={chat.id} chat={chat} myUserId={myUserId} />
          ) : (
            <ChatRow key={chat.id} chat={chat} myUserId={myUserId} isActive={chat.id === activeChatId} />
          ),
        )}
      </ul>
    </nav>
  );
};
