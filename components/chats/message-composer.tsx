'use client';

import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { controlStyles } from '@/components/ui/input';
import { CHAT_MESSAGE_MAX, measureMessage, SEND_MESSAGE_ERROR_MESSAGES, useSendMessage } from '@/lib/client/queries/chats';
import { describeError } from '@/lib/client/queries/errors';

/** Rows the box grows to before it scrolls. */
const MAX_ROWS = 6;

/**
 * The message box under a conversation: Enter sends, Shift+Enter starts a new line (and Enter
 * while an input method is composing is left to it). The count appears in the last 200
 * characters before the limit; a refused message stays in the box with the reason above it.
 */
export const MessageComposer = ({ chatId, myUserId, onSent }: { chatId: string; myUserId: string | undefined; onSent?: () => void }) => {
  const id = useId();
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const [draft, setDraft] = useState('');
  const send = useSendMessage(chatId, { myUserId });
  const measure = measureMessage(draft);
  const canSend = !measure.isEmpty && !measure.isOver && !send.isPending;

  const submit = () => {
    if (!canSend) return;
    send.mutate(draft, {
      onSuccess: () => {
        setDraft('');
        onSent?.();
        boxRef.current?.focus();
      },
    });
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    submit();
  };

  const rows = Math.min(MAX_ROWS, Math.max(1, draft.split('\n').length));
  const errorId = `${id}-error`;
  const counterId = `${id}-counter`;
  const hintId = `${id}-hint`;
  return (
    <form onSubmit={onSubmit} aria-label="Send a message" className="flex flex-col gap-2 border-t border-line bg-surface px-3 py-3 sm:px-4">
      {send.isError && (
        <p id={errorId} role="alert" className="rounded-lg border border-down/30 bg-down-soft px-3 py-2 text-sm text-down">
          {describeError(send.error, SEND_MESSAGE_ERROR_MESSAGES)}
        </p>
      )}
      <div className="flex items-end gap-2">
        <label htmlFor={id} className="sr-only">
          Message
        </label>
        <textarea
          ref={boxRef}
          id={id}
          value={draft}
          rows={rows}
          placeholder="Write a message…"
          onChange={(e) => {
            setDraft(e.target.value);
            if (send.isError) send.reset();
          }}
          onKeyDown={onKeyDown}
          aria-invalid={measure.isOver || undefined}
          aria-describedby={[hintId, measure.isNearLimit ? counterId : null, send.isError ? errorId : null].filter(Boolean).join(' ')}
          className={cn(controlStyles(measure.isOver), 'max-h-40 min-h-10 flex-1 resize-none py-2 leading-relaxed')}
        />
        <Button type="submit" disabled={!canSend} isLoading={send.isPending} className="h-10">
          Send
        </Button>
      </div>
      <div className="flex items-center justify-between gap-3 text-xs text-ink-faint">
        <span id={hintId} className="hidden sm:inline">
          Enter to send, Shift+Enter for a new line
        </span>
        {measure.isNearLimit && (
          <span id={counterId} aria-live="polite" className={cn('ml-auto tabular-nums', measure.isOver ? 'font-medium text-down' : 'text-ink-muted')}>
            {measure.length}/{CHAT_MESSAGE_MAX}
            <span className="sr-only"> characters{measure.isOver ? ', too long' : ''}</span>
          </span>
        )}
      </div>
    </form>
  );
};
