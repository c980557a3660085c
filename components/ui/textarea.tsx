import type { ComponentProps } from 'react';
import { cn } from './cn';
import { controlStyles } from './input';

export const Textarea = ({ className, 'aria-invalid': invalid, ...rest }: ComponentProps<'textarea'>) => (
  <textarea className={cn(controlStyles(!!invalid), 'min-h-24 resize-y py-2 leading-relaxed', className)} aria-invalid={invalid} {...rest} />
);
