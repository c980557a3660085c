'use client';

import { useEffect, useState } from 'react';
import { Button } from './button';
import { CheckIcon } from './icons';

type TCopyState = 'idle' | 'copied' | 'failed';

/**
 * A button that copies `text` to the clipboard and says so ("Copied", announced politely). Without
 * clipboard access (an insecure origin, a denied permission) it says to copy by hand; the text
 * stays on screen for that. `label` is its accessible name ("Copy the curl example").
 */
export const CopyButton = ({
  text,
  label,
  children = 'Copy',
  variant = 'secondary',
  size = 'sm',
  className,
}: {
  text: string;
  label: string;
  children?: string;
  variant?: 'primary' | 'secondary' | 'ghost';
  size?: 'sm' | 'md';
  className?: string;
}) => {
  const [state, setState] = useState<TCopyState>('idle');

  useEffect(() => {
    if (state !== 'copied') return;
    const t = setTimeout(() => setState('idle'), 2_500);
    return () => clearTimeout(t);
  }, [state]);

  const onCopy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <span className="inline-flex items-center gap-2">
      {/* Copied: the quiet look, as the referral link's button (the primary hover under a resting pointer is the loud one). */}
      <Button variant={state === 'copied' ? 'secondary' : variant} size={size} onClick={onCopy} aria-label={label} className={className}>
        {state === 'copied' ? (
          <>
            <CheckIcon className="size-4" /> Copied
          </>
        ) : (
          children
        )}
      </Button>
      <span role="status" className="text-xs text-ink-muted empty:hidden">
        {state === 'copied' ? <span className="sr-only">Copied to the clipboard.</span> : state === 'failed' ? 'Copying is blocked here: select the text and copy it by hand.' : ''}
      </span>
    </span>
  );
};
