'use client';

import { useRef, type KeyboardEvent } from 'react';
import { cn } from './cn';

/**
 * A tab list whose panel the caller renders (give the panel id `${idPrefix}-panel-${value}` and
 * role="tabpanel" via tabPanelProps). Arrow keys move between tabs.
 */
export const Tabs = <V extends string>({
  label,
  idPrefix,
  value,
  tabs,
  onChange,
  className,
}: {
  label: string;
  idPrefix: string;
  value: V;
  tabs: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  className?: string;
}) => {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = (index + step + tabs.length) % tabs.length;
    onChange(tabs[next]!.value);
    refs.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className={cn('flex gap-6 border-b border-line', className)}>
      {tabs.map((t, i) => {
        const isSelected = t.value === value;
        return (
          <button
            key={t.value}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${t.value}`}
            aria-selected={isSelected}
            aria-controls={`${idPrefix}-panel-${t.value}`}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onChange(t.value)}
            onKeyDown={(e) => onKeyDown(e, i)}
            className={cn(
              '-mb-px border-b-2 pb-3 text-sm font-medium transition-colors',
              isSelected ? 'border-accent text-ink' : 'border-transparent text-ink-muted hover:text-ink',
            )}
          >
            {t.label}
          </button>
        );
      })}
    </div>
  );
};

export const tabPanelProps = (idPrefix: string, value: string) => ({
  role: 'tabpanel' as const,
  id: `${idPrefix}-panel-${value}`,
  'aria-labelledby': `${idPrefix}-tab-${value}`,
});
