import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';

/** Preformatted code (JSON, HTTP), long lines wrapped (indentation kept) so phones need no sideways scroll; `label` names it for screen readers and heads it on screen. */
export const CodeBlock = ({ label, children, className, tone = 'neutral' }: { label?: ReactNode; children: string; className?: string; tone?: 'neutral' | 'error' }) => (
  <figure className={cn('min-w-0', className)}>
    {label && <figcaption className="mb-1.5 text-xs font-medium text-ink-faint">{label}</figcaption>}
    <pre
      tabIndex={0}
      className={cn(
        'max-h-[28rem] overflow-auto rounded-xl whitespace-pre-wrap break-words border bg-canvas px-3.5 py-3 font-mono text-xs leading-relaxed text-ink focus-visible:ring-2 focus-visible:ring-accent/40 focus-visible:outline-none',
        tone === 'error' ? 'border-down/40' : 'border-line',
      )}
    >
      <code>{children}</code>
    </pre>
  </figure>
);

/** Pretty JSON, two-space indent. */
export const toJson = (value: unknown) => JSON.stringify(value, null, 2);
