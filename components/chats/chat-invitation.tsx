'use client';

import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { CHAT_ERROR_MESSAGES, useAcceptChatInvitation, useDeclineChatInvitation } from '@/lib/client/queries/chats';
import { describeError } from '@/lib/client/queries/errors';

/** A refused answer shows through the mutation's error (below the buttons): nothing more to do with it. */
const ignoreShownError = () => undefined;

/**
 * Accept and Decline for an invitation to a group chat (two buttons, reachable and pressed with the
 * keyboard like any button). Accepting opens the chat; declining takes it off the list, and then
 * `onDeclined` runs (the conversation page goes back to the list). Both follow the mutation's
 * promise, not mutate's callbacks: answering swaps the list's invitation row for the chat's row,
 * which unmounts these buttons before mutate's own onSuccess would run.
 */
export const ChatInvitationActions = ({ chatId, title, onDeclined, className }: { chatId: string; title: string; onDeclined?: () => void; className?: string }) => {
  const router = useRouter();
  const accept = useAcceptChatInvitation();
  const decline = useDeclineChatInvitation();
  const error = accept.error ?? decline.error;
  const isBusy = accept.isPending || decline.isPending;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <span className="flex gap-2">
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Decline the invitation to ${title}`}
          disabled={isBusy}
          isLoading={decline.isPending}
          onClick={() => decline.mutateAsync(chatId).then(() => onDeclined?.(), ignoreShownError)}
        >
          Decline
        </Button>
        <Button
          size="sm"
          aria-label={`Accept the invitation to ${title}`}
          disabled={isBusy}
          isLoading={accept.isPending}
          onClick={() => accept.mutateAsync(chatId).then((joined) => router.push(`/chats/${encodeURIComponent(joined.id)}`), ignoreShownError)}
        >
          Accept
        </Button>
      </span>
      {error && (
        <p role="alert" className="text-sm text-down">
          {describeError(error, CHAT_ERROR_MESSAGES)}
        </p>
      )}
    </div>
  );
};
