import Link from 'next/link';
import type { ComponentProps } from 'react';
import { cn } from './cn';

type TVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
type TSize = 'sm' | 'md';

const VARIANTS: Record<TVariant, string> = {
  primary: 'bg-accent text-canvas hover:bg-accent-strong hover:text-white',
  secondary: 'border border-line-strong bg-elevated text-ink hover:border-ink-faint hover:bg-line',
  ghost: 'text-ink-muted hover:bg-elevated hover:text-ink',
  danger: 'border border-down/40 bg-down-soft text-down hover:bg-down/20',
};

const SIZES: Record<TSize, string> = {
  sm: 'h-8 gap-1.5 rounded-md px-3 text-sm',
  md: 'h-10 gap-2 rounded-lg px-4 text-sm',
};

export const buttonStyles = ({ variant = 'primary', size = 'md' }: { variant?: TVariant; size?: TSize } = {}) =>
  cn(
    'inline-flex shrink-0 items-center justify-center font-medium whitespace-nowrap transition-colors',
    'disabled:pointer-events-none disabled:opacity-50',
    VARIANTS[variant],
    SIZES[size],
  );

type TButtonProps = ComponentProps<'button'> & { variant?: TVariant; size?: TSize; isLoading?: boolean };

export const Button = ({ variant, size, isLoading, className, children, disabled, type = 'button', ...rest }: TButtonProps) => (
  <button
    type={type}
    className={cn(buttonStyles({ variant, size }), className)}
    disabled={disabled || isLoading}
    aria-busy={isLoading || undefined}
    {...rest}
  >
    {isLoading && <Spinner />}
    {children}
  </button>
);

type TLinkButtonProps = ComponentProps<typeof Link> & { variant?: TVariant; size?: TSize };

/** A link that looks like a button (navigation stays a real link). */
export const LinkButton = ({ variant, size, className, ...rest }: TLinkButtonProps) => (
  <Link className={cn(buttonStyles({ variant, size }), className)} {...rest} />
);

export const Spinner = ({ className }: { className?: string }) => (
  <svg className={cn('size-4 animate-spin', className)} viewBox="0 0 24 24" fill="none" aria-hidden="true">
    <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
    <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
  </svg>
);
