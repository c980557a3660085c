'use client';

import { useSelectedLayoutSegment } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { ErrorState } from '@/components/ui/error-state';
import { ChatIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { useSession } from '@/lib/client/queries/users';
import { ChatList } from './chat-list';
import { NewGroupChatDialog } from './new-group-chat-dialog';

/**
 * The chats section around its pages: the list of chats and the open conversation (`children`).
 * On wide screens they sit side by side; on narrow ones the list is the page until a chat is
 * opened, then the conversation is. Signed out, it asks to sign in.
 */
export const ChatsShell = ({ children }: { children: ReactNode }) => {
  const segment = useSelectedLayoutSegment();
  const openChatId = segment ? decodeURIComponent(segment) : null;
  const session = useSession();
  const [isCreating, setIsCreating] = useState(false);

  const header = (
    <PageHeader
      title="Chats"
      description="Direct messages and group chats with other players."
      actions={
        session.isSignedIn ? (
          <Button size="sm" onClick={() => setIsCreating(true)}>
            New group chat
          </Button>
        ) : undefined
      }
    />
  );

  if (session.isPending) {
    return (
      <>
        {header}
        <div role="status" aria-label="Loading chats" className="flex flex-col gap-2">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-16 w-full rounded-xl" />
          ))}
        </div>
      </>
    );
  }
  if (!session.isSignedIn) {
    return (
      <>
        {header}
        {session.failure ? (
          <ErrorState message={describeError(session.failure)} onRetry={() => session.refetch()} isRetrying={session.isFetching} />
        ) : (
          <SignInPrompt icon={<ChatIcon />} title="Sign in to see your chats" description="Message other players directly, start group chats and talk in your groups." />
        )}
      </>
    );
  }

  return (
    <>
      {/* In a conversation on a narrow screen, the conversation has the whole page. */}
      <div className={cn(openChatId && 'hidden lg:block')}>{header}</div>
      {openChatId && <h1 className="sr-only lg:hidden">Chats</h1>}
      <div className="lg:grid lg:grid-cols-[minmax(0,19rem)_minmax(0,1fr)] lg:items-start lg:gap-6">
        <div className={cn('min-w-0', openChatId && 'hidden lg:block', 'lg:max-h-[calc(100dvh-16rem)] lg:overflow-y-auto')}>
          <ChatList myUserId={session.user?.id} activeChatId={openChatId} onNewGroupChat={() => setIsCreating(true)} />
        </div>
        <div className={cn('min-w-0', !openChatId && 'hidden lg:block')}>{children}</div>
      </div>
      {isCreating && <NewGroupChatDialog myUserId={session.user?.id} onClose={() => setIsCreating(false)} />}
    </>
  );
};

/** The right-hand pane on wide screens before a chat is opened. */
export const NoChatOpen = () => (
  <div className="flex h-[calc(100dvh-16rem)] min-h-[22rem] flex-col items-center justify-center rounded-2xl border border-dashed border-line-strong bg-surface/60 px-6 text-center">
    <div aria-hidden="true" className="mb-4 flex size-12 items-center justify-center rounded-2xl border border-accent/25 bg-accent-soft text-accent">
      <ChatIcon />
    </div>
    <h2 className="text-lg font-semibold tracking-tight text-ink">Pick a conversation</h2>
    <p className="mt-2 max-w-sm text-sm text-ink-muted">Choose a chat on the left, or start one from a player’s profile with Message.</p>
  </div>
);
