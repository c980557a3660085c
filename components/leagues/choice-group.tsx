'use client';

import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '@/components/ui/cn';

export type TChoice<V extends string | number> = {
  value: V;
  /** The accessible name. */
  label: string;
  /** What the chip shows; the label when absent. */
  content?: ReactNode;
};

/**
 * A radio group of chips that wrap onto more lines (five tiers, any number of divisions): arrow
 * keys move the choice as in a native radio group, and only the chosen chip is in the tab order.
 */
export const ChoiceGroup = <V extends string | number>({
  label,
  value,
  choices,
  onChange,
  className,
  chipClassName,
}: {
  label: string;
  value: V | undefined;
  choices: readonly TChoice<V>[];
  onChange: (value: V) => void;
  className?: string;
  chipClassName?: string;
}) => {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const selectedIndex = Math.max(0, choices.findIndex((c) => c.value === value));
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    const to = e.key === 'Home' ? 0 : e.key === 'End' ? choices.length - 1 : step ? (index + step + choices.length) % choices.length : null;
    if (to === null) return;
    e.preventDefault();
    onChange(choices[to]!.value);
    refs.current[to]?.focus();
  };
  return (
    <div role="radiogroup" aria-label={label} className={cn('flex flex-wrap gap-2', className)}>
      {choices.map((c, i) => {
        const isSelected = c.value === value;
        return (
          <button
            key={String(c.value)}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="radio"
            aria-checked={isSelected}
            aria-label={c.content ? c.label : undefined}
            tabIndex={i === selectedIndex ? 0 : -1}
            onClick={() => onChange(c.value)}
            onKeyDown={(e) => onKeyDown(e, i)}
            className={cn(
              'rounded-lg border px-3 py-1.5 text-sm font-medium transition-colors',
              isSelected ? 'border-accent/60 bg-accent-soft text-ink' : 'border-line text-ink-muted hover:border-line-strong hover:text-ink',
              chipClassName,
            )}
          >
            {c.content ?? c.label}
          </button>
        );
      })}
    </div>
  );
};
