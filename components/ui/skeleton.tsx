import type { ComponentProps } from 'react';
import { cn } from './cn';

/** A placeholder block; decorative, so hidden from assistive technology (announce loading elsewhere). */
export const Skeleton = ({ className, ...rest }: ComponentProps<'div'>) => (
  <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-elevated', className)} {...rest} />
);
