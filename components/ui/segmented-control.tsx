'use client';

import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from './cn';

export type TSegmentOption<V extends string> = {
  value: V;
  /** The accessible name; also the visible text unless `content` is given. */
  label: string;
  content?: ReactNode;
  /** Classes for the selected state (e.g. green for YES); the accent otherwise. */
  selectedClassName?: string;
};

/**
 * A radio group drawn as joined buttons: one choice of a few (Buy/Sell, YES/NO). Arrow keys move
 * the choice, as in a native radio group; only the chosen option is in the tab order.
 */
export const SegmentedControl = <V extends string>({
  label,
  value,
  options,
  onChange,
  size = 'md',
  className,
}: {
  label: string;
  value: V;
  options: readonly TSegmentOption<V>[];
  onChange: (value: V) => void;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}) => {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = (index + step + options.length) % options.length;
    onChange(options[next]!.value);
    refs.current[next]?.focus();
  };
  return (
    <div role="radiogroup" aria-label={label} className={cn('flex gap-1 rounded-xl border border-line bg-canvas p-1', className)}>
      {options.map((o, i) => {
        const isSelected = o.value === value;
        return (
          <button
            key={o.value}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="radio"
            aria-checked={isSelected}
            aria-label={o.content ? o.label : undefined}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onChange(o.value)}
            onKeyDown={(e) => onKeyDown(e, i)}
            className={cn(
              'flex flex-1 items-center justify-center gap-2 rounded-lg font-medium transition-colors',
              size === 'sm' && 'h-8 px-3 text-sm',
              size === 'md' && 'h-9 px-3 text-sm',
              size === 'lg' && 'h-12 px-3 text-base',
              isSelected ? (o.selectedClassName ?? 'bg-elevated text-ink shadow-sm ring-1 ring-line-strong') : 'text-ink-muted hover:bg-elevated/60 hover:text-ink',
            )}
          >
            {o.content ?? o.label}
          </button>
        );
      })}
    </div>
  );
};
