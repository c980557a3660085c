'use client';

import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { describedBy } from '@/components/ui/field';
import { CheckIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';

type TCopyState = 'idle' | 'copied' | 'manual';

/** The referral link in a read-only field (selected on focus) and a Copy button; without clipboard access it selects the text to copy by hand. */
export const ReferralLink = ({ url }: { url: string }) => {
  const inputRef = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<TCopyState>('idle');

  useEffect(() => {
    if (state !== 'copied') return;
    const t = setTimeout(() => setState('idle'), 2_500);
    return () => clearTimeout(t);
  }, [state]);

  const selectAll = () => inputRef.current?.select();

  const onCopy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      setState('copied');
    } catch {
      inputRef.current?.focus();
      selectAll();
      setState('manual');
    }
  };

  const hint =
    state === 'manual'
      ? 'Copying is blocked here: the link is selected, press Ctrl+C (or ⌘C) to copy it.'
      : 'Anyone who signs up through this link counts as your referral.';
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor="referral-link" className="text-sm font-medium text-ink">
        Your referral link
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          ref={inputRef}
          id="referral-link"
          readOnly
          value={url}
          onFocus={selectAll}
          className="font-mono text-xs sm:text-sm"
          aria-describedby={describedBy('referral-link', { hint })}
        />
        <Button onClick={onCopy} variant={state === 'copied' ? 'secondary' : 'primary'} className="sm:w-32">
          {state === 'copied' ? (
            <>
              <CheckIcon className="size-4" /> Copied
            </>
          ) : (
            'Copy link'
          )}
        </Button>
      </div>
      <p id="referral-link-hint" className="text-sm text-ink-muted" aria-live="polite">
        {state === 'copied' ? 'Link copied to the clipboard.' : hint}
      </p>
    </div>
  );
};
