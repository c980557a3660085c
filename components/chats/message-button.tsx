'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ChatIcon } from '@/components/ui/icons';
import { CHAT_ERROR_MESSAGES, useOpenDirectChat } from '@/lib/client/queries/chats';
import { describeError } from '@/lib/client/queries/errors';
import { useSession } from '@/lib/client/queries/users';

/**
 * "Message" on someone else's profile: opens (or reopens) the direct chat with them and goes to
 * it. Only for a signed-in viewer looking at another person; a refusal (a block) shows under it.
 */
export const MessageButton = ({ userId, username, size = 'md' }: { userId: string; username: string; size?: 'sm' | 'md' }) => {
  const router = useRouter();
  const session = useSession();
  const open = useOpenDirectChat();
  const [problem, setProblem] = useState<string | null>(null);
  if (!session.isSignedIn || session.user?.id === userId) return null;
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Button
        variant="secondary"
        size={size}
        aria-label={`Message @${username}`}
        isLoading={open.isPending || open.isSuccess}
        onClick={() => {
          setProblem(null);
          open.mutate(userId, {
            onSuccess: (chat) => router.push(`/chats/${encodeURIComponent(chat.id)}`),
            onError: (e) => setProblem(describeError(e, CHAT_ERROR_MESSAGES)),
          });
        }}
      >
        {!(open.isPending || open.isSuccess) && <ChatIcon className="size-4" />}
        {/* The icon alone on a phone, where the profile's buttons share one row. */}
        <span className="sr-only sm:not-sr-only">Message</span>
      </Button>
      {problem && (
        <span role="alert" className="max-w-48 text-right text-xs text-down">
          {problem}
        </span>
      )}
    </span>
  );
};
