import type { ReactNode } from 'react';
import { cn } from './cn';

/**
 * A phone's trade bar: fixed just above the bottom tab bar (4 rem, plus the safe area) on screens
 * narrower than `md`, so a detail page's main action is one tap away wherever the page is scrolled.
 * Desktop has the side panel instead; this renders nothing visible there. The page keeps room for
 * it at the end of its content (`StickyActionBarSpacer`) so the bar never covers the last lines.
 */
export const StickyActionBar = ({ label, children, className }: { label: string; children: ReactNode; className?: string }) => (
  <div
    role="region"
    aria-label={label}
    className={cn(
      'fixed inset-x-0 bottom-[calc(4rem+env(safe-area-inset-bottom))] z-20 border-t border-line bg-surface/95 px-4 py-2.5 backdrop-blur md:hidden',
      className,
    )}
  >
    <div className="mx-auto flex max-w-md items-center gap-2">{children}</div>
  </div>
);

/** Room for the bar at the end of a page's content, on phones only. */
export const StickyActionBarSpacer = () => <div aria-hidden="true" className="h-16 md:hidden" />;
