'use client';

import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Textarea } from '@/components/ui/textarea';
import { COMMENT_ERROR_MESSAGES, COMMENT_MIN_CHARS, commentDraftProblem, visibleLength } from '@/lib/client/queries/comments';
import { describeError, getFieldErrors } from '@/lib/client/queries/errors';

/**
 * A comment, reply or edit form: the text, the minimum-length rule always in view, and the
 * server's answer when it says no. `onSubmit` resolves when the comment is saved.
 */
export const CommentForm = ({
  id,
  label,
  submitLabel,
  initialText = '',
  isPending,
  onSubmit,
  onCancel,
  autoFocus,
  className,
}: {
  id?: string;
  label: string;
  submitLabel: string;
  initialText?: string;
  isPending: boolean;
  onSubmit: (content: string) => Promise<unknown>;
  onCancel?: () => void;
  autoFocus?: boolean;
  className?: string;
}) => {
  const generated = useId();
  const fieldId = `${id ?? generated}-text`;
  const [text, setText] = useState(initialText);
  const [error, setError] = useState<string | null>(null);
  const count = visibleLength(text.trim());
  const isShort = commentDraftProblem(text) === 'too-short';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (isShort) {
      setError(`Comments need at least ${COMMENT_MIN_CHARS} characters (${count} so far).`);
      return;
    }
    setError(null);
    try {
      await onSubmit(text.trim());
      setText('');
    } catch (err) {
      setError(getFieldErrors(err).content ?? describeError(err, COMMENT_ERROR_MESSAGES));
    }
  };

  return (
    <form id={id} onSubmit={submit} className={cn('flex flex-col gap-2', className)} noValidate>
      <label htmlFor={fieldId} className="text-sm font-medium text-ink">
        {label}
      </label>
      <Textarea
        id={fieldId}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (error) setError(null);
        }}
        rows={3}
        className="min-h-20"
        autoFocus={autoFocus}
        aria-invalid={!!error || undefined}
        aria-describedby={`${fieldId}-rule${error ? ` ${fieldId}-error` : ''}`}
      />
      <div className="flex flex-wrap items-center gap-2">
        <p id={`${fieldId}-rule`} className={cn('text-xs', isShort && count > 0 ? 'text-warn' : 'text-ink-faint')}>
          At least {COMMENT_MIN_CHARS} characters
          <span className="tabular-nums"> · {count} written</span>
        </p>
        <div className="ml-auto flex gap-2">
          {onCancel && (
            <Button variant="ghost" size="sm" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" size="sm" isLoading={isPending}>
            {submitLabel}
          </Button>
        </div>
      </div>
      <div aria-live="polite" className="empty:hidden">
        {error && (
          <p id={`${fieldId}-error`} role="alert" className="text-sm text-down">
            {error}
          </p>
        )}
      </div>
    </form>
  );
};
