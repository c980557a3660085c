import type { ComponentProps } from 'react';
import { Button } from './button';
import { cn } from './cn';

/** A trade form's full-width submit button, green for the up side (long, YES) and red for the down side. */
export const SideSubmitButton = ({ tone, className, ...rest }: Omit<ComponentProps<typeof Button>, 'type' | 'variant' | 'size'> & { tone: 'up' | 'down' }) => (
  <Button
    type="submit"
    className={cn('h-11 w-full text-base', tone === 'up' ? 'bg-up text-canvas hover:bg-up/85 hover:text-canvas' : 'bg-down text-canvas hover:bg-down/85 hover:text-canvas', className)}
    {...rest}
  />
);
