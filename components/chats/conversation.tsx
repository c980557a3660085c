'use client';

import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useLayoutEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Button, LinkButton } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatDateTime } from '@/components/ui/format';
import { ArrowDownIcon, ChatIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import {
  cachedUnreadCount,
  CHAT_ERROR_MESSAGES,
  firstUnreadMessageId,
  flattenChatMessages,
  useChat,
  useChats,
  type TChat,
  type TChatMessage,
} from '@/lib/client/queries/chats';
import { describeError, hasErrorCode, isApiError } from '@/lib/client/queries/errors';
import { useSession } from '@/lib/client/queries/users';
import { profileHref } from '@/lib/users/links';
import { ChatAvatar } from './chat-avatar';
import { ChatInvitationActions } from './chat-invitation';
import { chatTitle, formatMessageTime, personName } from './format';
import { LeaveChatDialog } from './leave-chat-dialog';
import { MessageComposer } from './message-composer';
import { useLiveChat } from './use-live-chat';

/** Within this many pixels of the bottom, the reader is following along: new messages scroll into view. */
const FOLLOW_PX = 96;
/** Within this many pixels of the top, older messages load. */
const LOAD_OLDER_PX = 160;

const MessageItem = ({ message, isMine, isGroup }: { message: TChatMessage; isMine: boolean; isGroup: boolean }) => {
  const name = isMine ? 'You' : personName(message.sender);
  const time = formatMessageTime(message.createdAt);
  return (
    <article aria-label={`${name}, ${time}`} data-message-id={message.id} className={cn('flex items-end gap-2', isMine ? 'justify-end' : 'justify-start')}>
      {!isMine && <Avatar src={message.sender.profileImageUrl} name={personName(message.sender)} size="sm" className="mb-5" />}
      <div className={cn('flex max-w-[80%] min-w-0 flex-col', isMine ? 'items-end' : 'items-start')}>
        {!isMine && isGroup && <span className="mb-0.5 px-1 text-xs font-medium text-ink-muted">{name}</span>}
        <p
          className={cn(
            'rounded-2xl px-3.5 py-2 text-sm leading-relaxed whitespace-pre-wrap [overflow-wrap:anywhere]',
            isMine ? 'rounded-br-md bg-accent text-canvas' : 'rounded-bl-md bg-elevated text-ink',
          )}
        >
          {message.content}
        </p>
        <time dateTime={message.createdAt} title={formatDateTime(message.createdAt)} className="mt-1 px-1 text-[11px] text-ink-faint">
          {time}
        </time>
      </div>
    </article>
  );
};

const NewMessagesDivider = ({ dividerRef }: { dividerRef: { current: HTMLDivElement | null } }) => (
  <div ref={dividerRef} role="separator" aria-label="New messages" data-testid="new-messages-divider" className="flex items-center gap-3 py-1 text-xs font-medium text-accent">
    <span aria-hidden="true" className="h-px flex-1 bg-accent/40" />
    <span aria-hidden="true">New messages</span>
    <span aria-hidden="true" className="h-px flex-1 bg-accent/40" />
  </div>
);

/** "3 members", "3 members · 1 invited" (invited people have not accepted yet). */
const membersLine = (chat: TChat) => {
  const invited = chat.participants.filter((p) => p.membership === 'invited').length;
  const members = chat.participantCount - invited;
  return `${members === 1 ? '1 member' : `${members} members`}${invited ? ` · ${invited} invited` : ''}`;
};

const ConversationHeader = ({ chat, myUserId, onLeave }: { chat: TChat; myUserId: string | undefined; onLeave: () => void }) => (
  <header className="flex items-center gap-3 border-b border-line px-3 py-3 sm:px-4">
    <Link
      href="/chats"
      aria-label="All chats"
      className="-ml-1 inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-ink-muted hover:bg-elevated hover:text-ink lg:hidden"
    >
      <span aria-hidden="true">←</span>
    </Link>
    <ChatAvatar chat={chat} myUserId={myUserId} />
    <div className="min-w-0 flex-1">
      <h2 className="truncate text-base font-semibold tracking-tight text-ink">{chatTitle(chat)}</h2>
      <p className="truncate text-xs text-ink-muted">
        {chat.isGroup ? (
          <>
            {membersLine(chat)}
            {chat.groupId && (
              <>
                {' · '}
                <Link href={`/groups/${encodeURIComponent(chat.groupId)}`} className="text-accent hover:underline">
                  Group page
                </Link>
              </>
            )}
          </>
        ) : chat.otherUser ? (
          <Link href={profileHref(chat.otherUser)} className="hover:text-ink hover:underline">
            @{chat.otherUser.username}
          </Link>
        ) : (
          'Direct message'
        )}
      </p>
    </div>
    {/* A group's own chat is left by leaving the group (its page). */}
    {!chat.groupId && (
      <Button variant="ghost" size="sm" onClick={onLeave}>
        Leave chat
      </Button>
    )}
  </header>
);

const ConversationSkeleton = ({ className }: { className: string }) => (
  <div role="status" aria-label="Loading conversation" className={cn('flex flex-col gap-4 rounded-2xl border border-line bg-surface p-4', className)}>
    <div className="flex items-center gap-3">
      <Skeleton className="size-10 rounded-full" />
      <Skeleton className="h-4 w-40" />
    </div>
    <div className="flex flex-1 flex-col justify-end gap-3">
      <Skeleton className="h-9 w-2/3 rounded-2xl" />
      <Skeleton className="ml-auto h-9 w-1/2 rounded-2xl" />
      <Skeleton className="h-9 w-3/5 rounded-2xl" />
    </div>
    <Skeleton className="h-10 w-full rounded-lg" />
  </div>
);

/**
 * One conversation: its messages oldest at the top and newest at the bottom, older ones loading
 * as the reader scrolls up (or with "Load older messages"), new ones arriving live. Opening it
 * marks it read and draws "New messages" above the first message that was unread. `page` is the
 * chats page's view (a header with the name and "Leave chat"); `embedded` sits in a group's page.
 */
export const Conversation = ({ chatId, variant = 'page', className }: { chatId: string; variant?: 'page' | 'embedded'; className?: string }) => {
  const qc = useQueryClient();
  const router = useRouter();
  const session = useSession();
  const myUserId = session.user?.id;
  // Read before the chat loads: loading it marks it read.
  const [unreadAtOpen] = useState(() => cachedUnreadCount(qc, chatId));
  const chat = useChat(chatId, { isEnabled: session.isSignedIn });
  const messages = useMemo(() => flattenChatMessages(chat.data), [chat.data]);
  const info = chat.data?.pages[0]?.chat;
  // An invitation not yet answered (opened by its address) is refused as a chat; its name and who
  // invited come from the chat list, subscribed to (not read once) so they appear when it loads.
  const isInvitation = !chat.data && isApiError(chat.error) && chat.error.code === 'NOT_CHAT_MEMBER' && chat.error.details?.invitation === true;
  const chats = useChats({ isEnabled: session.isSignedIn && isInvitation });

  // Where "New messages" goes is decided once, when the conversation first loads.
  const [divider, setDivider] = useState<{ id: string | null } | null>(null);
  if (divider === null && info && myUserId) {
    setDivider({ id: firstUnreadMessageId(messages, Math.max(unreadAtOpen, info.unreadCount), myUserId) });
  }

  const logRef = useRef<HTMLDivElement>(null);
  const dividerRef = useRef<HTMLDivElement>(null);
  const isFollowingRef = useRef(true);
  const shown = useRef<{ firstId?: string; lastId?: string; height: number } | null>(null);
  const [hasNewBelow, setHasNewBelow] = useState(false);
  const [isLeaving, setIsLeaving] = useState(false);

  useLiveChat(chatId, {
    myUserId,
    isEnabled: session.isSignedIn && chat.isSuccess,
    onMessage: (m) => {
      if (m.senderId !== myUserId && !isFollowingRef.current) setHasNewBelow(true);
    },
  });

  const scrollToLatest = () => {
    const el = logRef.current;
    if (el) el.scrollTop = el.scrollHeight;
    setHasNewBelow(false);
  };

  // Keeps the view steady as messages come and go: the first paint shows "New messages" (or the
  // newest message); older messages above leave what the reader looks at in place; new ones at
  // the bottom scroll into view when the reader follows along or sent them.
  useLayoutEffect(() => {
    const el = logRef.current;
    if (!el) return;
    const firstId = messages[0]?.id;
    const lastId = messages.at(-1)?.id;
    const before = shown.current;
    if (!before) {
      if (dividerRef.current) el.scrollTop = Math.max(0, dividerRef.current.offsetTop - 24);
      else el.scrollTop = el.scrollHeight;
    } else if (firstId !== before.firstId && lastId === before.lastId) {
      el.scrollTop += el.scrollHeight - before.height;
    } else if (lastId !== before.lastId && (isFollowingRef.current || messages.at(-1)?.senderId === myUserId)) {
      el.scrollTop = el.scrollHeight;
    }
    shown.current = { firstId, lastId, height: el.scrollHeight };
  }, [messages, myUserId, divider]);

  const loadOlder = () => {
    if (chat.hasNextPage && !chat.isFetchingNextPage) void chat.fetchNextPage();
  };

  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    isFollowingRef.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_PX;
    if (isFollowingRef.current && hasNewBelow) setHasNewBelow(false);
    if (el.scrollTop < LOAD_OLDER_PX && el.scrollHeight > el.clientHeight) loadOlder();
  };

  const height = variant === 'page' ? 'h-[calc(100dvh-15rem)] min-h-[22rem] md:h-[calc(100dvh-10rem)] lg:h-[calc(100dvh-16rem)]' : 'h-[34rem] max-h-[75dvh] min-h-[22rem]';

  if (session.isPending || (session.isSignedIn && chat.isPending)) return <ConversationSkeleton className={cn(height, className)} />;
  if (!session.isSignedIn) return null;
  // A failed older page or background reload keeps what is loaded on screen (the error shows in the log).
  if (chat.isError && !chat.data) {
    // An invitation not yet answered (opened by its address): nothing of the chat until it is accepted.
    if (isInvitation) {
      const summary = chats.data?.chats.find((c) => c.id === chatId);
      const title = summary ? chatTitle(summary) : 'this chat';
      return (
        <EmptyState
          icon={<ChatIcon />}
          title="You are invited to this chat"
          description={`${summary?.invitedBy ? `${personName(summary.invitedBy)} invited you. ` : ''}Accept to read its messages and take part; decline and it leaves your chats.`}
          action={<ChatInvitationActions chatId={chatId} title={title} onDeclined={() => router.push('/chats')} className="items-center" />}
          className={className}
        />
      );
    }
    if (hasErrorCode(chat.error, 'CHAT_NOT_FOUND', 'NOT_CHAT_MEMBER', 'INVALID_PARAMETER')) {
      return (
        <EmptyState
          icon={<ChatIcon />}
          title={hasErrorCode(chat.error, 'NOT_CHAT_MEMBER') ? 'You are not in this chat' : 'This chat does not exist'}
          description={describeError(chat.error, CHAT_ERROR_MESSAGES)}
          action={
            variant === 'page' ? (
              <LinkButton href="/chats" variant="secondary">
                All chats
              </LinkButton>
            ) : undefined
          }
          className={className}
        />
      );
    }
    return <ErrorState message={describeError(chat.error, CHAT_ERROR_MESSAGES)} onRetry={() => chat.refetch()} isRetrying={chat.isFetching} className={className} />;
  }
  if (!info) return null;

  return (
    <section aria-label={variant === 'page' ? `Conversation: ${chatTitle(info)}` : undefined} className={cn('flex flex-col overflow-hidden rounded-2xl border border-line bg-surface', height, className)}>
      {variant === 'page' && <ConversationHeader chat={info} myUserId={myUserId} onLeave={() => setIsLeaving(true)} />}
      <div className="relative min-h-0 flex-1">
        <div
          ref={logRef}
          role="log"
          aria-label="Messages"
          aria-live="polite"
          tabIndex={0}
          onScroll={onScroll}
          className="relative h-full overflow-y-auto px-3 py-4 [overflow-anchor:none] focus-visible:ring-2 focus-visible:ring-accent/40 focus-visible:outline-none focus-visible:ring-inset sm:px-4"
        >
          <div className="flex justify-center pb-3">
            {chat.hasNextPage ? (
              <Button variant="ghost" size="sm" onClick={loadOlder} isLoading={chat.isFetchingNextPage}>
                Load older messages
              </Button>
            ) : messages.length > 0 ? (
              <p className="text-xs text-ink-faint">This is the start of the conversation.</p>
            ) : null}
          </div>
          {chat.isFetchNextPageError && (
            <p role="alert" className="pb-3 text-center text-sm text-down">
              {describeError(chat.error, CHAT_ERROR_MESSAGES)}
            </p>
          )}
          {messages.length === 0 ? (
            <p className="py-10 text-center text-sm text-ink-muted">No messages yet. Say hello!</p>
          ) : (
            <div className="flex flex-col gap-3">
              {messages.map((m) => (
                <div key={m.id} className="flex flex-col gap-3">
                  {divider?.id === m.id && <NewMessagesDivider dividerRef={dividerRef} />}
                  <MessageItem message={m} isMine={m.senderId === myUserId} isGroup={info.isGroup} />
                </div>
              ))}
            </div>
          )}
        </div>
        {hasNewBelow && (
          <button
            type="button"
            onClick={scrollToLatest}
            className="absolute bottom-3 left-1/2 inline-flex -translate-x-1/2 items-center gap-1.5 rounded-full border border-accent/40 bg-surface px-3 py-1.5 text-xs font-medium text-accent shadow-lg hover:bg-accent-soft"
          >
            <ArrowDownIcon className="size-3.5" />
            Jump to latest
          </button>
        )}
      </div>
      <MessageComposer chatId={chatId} myUserId={myUserId} onSent={() => setHasNewBelow(false)} />
      {isLeaving && <LeaveChatDialog chat={info} onClose={() => setIsLeaving(false)} />}
    </section>
  );
};
