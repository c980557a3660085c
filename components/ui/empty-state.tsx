import type { ReactNode } from 'react';
import { cn } from './cn';

/** A designed placeholder for a section with nothing to show yet. */
export const EmptyState = ({
  icon,
  title,
  description,
  action,
  headingLevel = 2,
  className,
}: {
  icon?: ReactNode;
  title: string;
  description: ReactNode;
  action?: ReactNode;
  headingLevel?: 1 | 2 | 3;
  className?: string;
}) => {
  const Heading = (['h1', 'h2', 'h3'] as const)[headingLevel - 1]!;
  return (
    <div className={cn('flex flex-col items-center rounded-2xl border border-dashed border-line-strong bg-surface/60 px-6 py-12 text-center', className)}>
      {icon && (
        <div aria-hidden="true" className="mb-4 flex size-12 items-center justify-center rounded-2xl border border-accent/25 bg-accent-soft text-accent">
          {icon}
        </div>
      )}
      <Heading className="text-lg font-semibold tracking-tight text-ink">{title}</Heading>
      <p className="mt-2 max-w-md text-sm leading-relaxed text-ink-muted">{description}</p>
      {action && <div className="mt-6">{action}</div>}
    </div>
  );
};
