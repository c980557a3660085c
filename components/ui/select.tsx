import type { ComponentProps } from 'react';
import { cn } from './cn';
import { controlStyles } from './input';

/** A native select styled like Input: keyboard and screen readers get the platform's own picker. */
export const Select = ({ className, 'aria-invalid': invalid, ...rest }: ComponentProps<'select'>) => (
  <select className={cn(controlStyles(!!invalid), 'h-10 cursor-pointer pr-8', className)} aria-invalid={invalid} {...rest} />
);
