import type { ComponentProps } from 'react';
import { cn } from './cn';

/** A surface. `isPadded={false}` for cards whose content runs edge to edge (tables, banners). */
export const Card = ({ className, isPadded = true, ...rest }: ComponentProps<'section'> & { isPadded?: boolean }) => (
  <section className={cn('rounded-2xl border border-line bg-surface', isPadded && 'p-5 sm:p-6', className)} {...rest} />
);

export const CardTitle = ({ className, ...rest }: ComponentProps<'h2'>) => (
  <h2 className={cn('text-base font-semibold tracking-tight text-ink', className)} {...rest} />
);

export const CardDescription = ({ className, ...rest }: ComponentProps<'p'>) => (
  <p className={cn('mt-1 text-sm text-ink-muted', className)} {...rest} />
);
