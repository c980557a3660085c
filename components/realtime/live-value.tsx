'use client';

import { useEffect, useState, type ReactNode } from 'react';
import { cn } from '@/components/ui/cn';

/** How long a moved number stays tinted. */
const FLASH_MS = 1_200;

/**
 * 'up' or 'down' for a moment after `value` changes, then null. The previous value is kept in
 * state and compared during render (React's pattern for deriving from the last render).
 */
export const useChangeFlash = (value: number) => {
  const [previous, setPrevious] = useState(value);
  const [direction, setDirection] = useState<'up' | 'down' | null>(null);
  if (value !== previous) {
    setPrevious(value);
    setDirection(value > previous ? 'up' : 'down');
  }
  useEffect(() => {
    if (!direction) return;
    const id = setTimeout(() => setDirection(null), FLASH_MS);
    return () => clearTimeout(id);
  }, [direction, value]);
  return direction;
};

/**
 * A number that moves live: tinted green or red for a moment when it goes up or down, so the eye
 * catches it. The colour is a hint only (the number itself is the information) and it changes
 * without motion. `data-flash` names the direction for tests.
 */
export const LiveValue = ({ value, className, children }: { value: number; className?: string; children: ReactNode }) => {
  const flash = useChangeFlash(value);
  return (
    <span
      data-flash={flash ?? undefined}
      className={cn('transition-colors duration-700', flash === 'up' && 'text-up', flash === 'down' && 'text-down', className)}
    >
      {children}
    </span>
  );
};
