'use client';

import { cn } from '@/components/ui/cn';
import { useConnectionState, type TConnectionState } from './realtime-provider';

const LABELS: Record<TConnectionState, { short: string; long: string }> = {
  connecting: { short: 'Connecting…', long: 'Live updates: connecting' },
  open: { short: 'Live', long: 'Live updates: connected. Prices, news and posts update as they happen.' },
  reconnecting: { short: 'Reconnecting…', long: 'Live updates: reconnecting. Anything missed is caught up when it is back.' },
  offline: { short: 'Offline', long: 'Live updates: offline. They resume when the connection is back.' },
};

/**
 * The mark differs in shape as well as colour: a solid dot (live), a hollow ring that pulses
 * (connecting, reconnecting; steady under reduced motion), a crossed ring (offline).
 */
const StateMark = ({ state }: { state: TConnectionState }) => {
  if (state === 'open') return <span aria-hidden="true" className="size-2.5 shrink-0 rounded-full bg-up shadow-[0_0_0_3px] shadow-up/20" />;
  if (state === 'offline') {
    return (
      <svg aria-hidden="true" viewBox="0 0 12 12" className="size-3 shrink-0 text-down" fill="none" stroke="currentColor" strokeWidth="1.6">
        <circle cx="6" cy="6" r="4.6" />
        <path d="M2.8 9.2 9.2 2.8" />
      </svg>
    );
  }
  return <span aria-hidden="true" className="size-2.5 shrink-0 rounded-full border-2 border-warn motion-safe:animate-pulse" />;
};

/**
 * Whether live updates are flowing. `full` shows the word beside the mark (the sidebar); `compact`
 * shows the mark alone (the phone's top bar) and keeps the words for screen readers and the
 * tooltip. A status region, so a change is announced politely; a planned reconnect of the stream
 * is too quick to show (see RECONNECT_GRACE_MS).
 */
export const ConnectionIndicator = ({ variant = 'full', className }: { variant?: 'full' | 'compact'; className?: string }) => {
  const state = useConnectionState();
  const label = LABELS[state];
  return (
    <span
      role="status"
      data-testid="connection-indicator"
      data-state={state}
      title={label.long}
      className={cn(
        'inline-flex items-center gap-2 text-xs font-medium',
        state === 'open' ? 'text-ink-muted' : state === 'offline' ? 'text-down' : 'text-warn',
        variant === 'compact' && 'rounded-full bg-canvas p-0.5',
        className,
      )}
    >
      <StateMark state={state} />
      {variant === 'full' ? (
        <>
          <span aria-hidden="true">{label.short}</span>
          <span className="sr-only">{label.long}</span>
        </>
      ) : (
        <span className="sr-only">{label.long}</span>
      )}
    </span>
  );
};
