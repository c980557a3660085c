import type { ComponentProps } from 'react';
import { cn } from './cn';

export const controlStyles = (isInvalid?: boolean) =>
  cn(
    'w-full rounded-lg border bg-canvas px-3 text-sm text-ink placeholder:text-ink-faint transition-colors',
    'focus-visible:border-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/40',
    'disabled:cursor-not-allowed disabled:opacity-60',
    isInvalid ? 'border-down/70' : 'border-line-strong hover:border-ink-faint',
  );

export const Input = ({ className, 'aria-invalid': invalid, ...rest }: ComponentProps<'input'>) => (
  <input className={cn(controlStyles(!!invalid), 'h-10', className)} aria-invalid={invalid} {...rest} />
);

/**
 * An Input with a fixed symbol inside its left edge ($ for money, @ for a username). The symbol is
 * decoration (hidden from screen readers): the field's label says what it holds.
 */
export const PrefixedInput = ({ prefix, className, ...rest }: ComponentProps<'input'> & { prefix: string }) => (
  <div className="relative">
    <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-ink-faint">
      {prefix}
    </span>
    <Input className={cn('pl-7', className)} {...rest} />
  </div>
);
