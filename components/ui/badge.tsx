import type { ComponentProps } from 'react';
import { cn } from './cn';

export type TBadgeTone = 'neutral' | 'accent' | 'up' | 'down' | 'warn';

const TONES: Record<TBadgeTone, string> = {
  neutral: 'border-line-strong bg-elevated text-ink-muted',
  accent: 'border-accent/30 bg-accent-soft text-accent',
  up: 'border-up/30 bg-up-soft text-up',
  down: 'border-down/30 bg-down-soft text-down',
  warn: 'border-warn/30 bg-warn-soft text-warn',
};

export const Badge = ({ tone = 'neutral', className, ...rest }: ComponentProps<'span'> & { tone?: TBadgeTone }) => (
  <span
    className={cn('inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap', TONES[tone], className)}
    {...rest}
  />
);
