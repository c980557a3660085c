import type { ReactNode } from 'react';
import { cn } from './cn';

/** A form's live preview of what it will do: label and figure pairs in a soft panel. */
export const PreviewList = ({ label, children }: { label: string; children: ReactNode }) => (
  <dl aria-label={label} className="flex flex-col gap-2 rounded-xl border border-line bg-canvas/60 px-4 py-3 text-sm">
    {children}
  </dl>
);

/** One figure of a preview: the label on the left, the value right-aligned. */
export const PreviewRow = ({ label, value, className }: { label: string; value: string; className?: string }) => (
  <div className="flex items-baseline justify-between gap-3">
    <dt className="text-ink-muted">{label}</dt>
    <dd className={cn('text-right font-medium text-ink tabular-nums', className)}>{value}</dd>
  </div>
);

/** Stands where the preview will be until the form has something to preview. */
export const PreviewPlaceholder = ({ children }: { children: ReactNode }) => (
  <p className="rounded-xl border border-dashed border-line-strong px-4 py-3 text-center text-xs text-ink-faint">{children}</p>
);
