import type { ComponentProps } from 'react';

/** Angle brackets and a slash: the developer page's nav icon (24px stroke, decorative, like components/ui/icons). */
export const CodeIcon = (p: Omit<ComponentProps<'svg'>, 'children'>) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
    className="size-5"
    {...p}
  >
    <path d="m8 7-5 5 5 5M16 7l5 5-5 5M13.5 5l-3 14" />
  </svg>
);
