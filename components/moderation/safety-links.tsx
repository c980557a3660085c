import Link from 'next/link';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';

const LINKS = [
  { href: '/settings/blocks', label: 'Blocked players', description: 'Neither of you sees or reaches the other. Unblock here.' },
  { href: '/settings/mutes', label: 'Muted players', description: 'Their posts and notifications stay out of your way. Unmute here.' },
] as const;

/** Privacy and safety: links to the blocked and muted players pages (on one's profile and the settings page). */
export const SafetyLinks = ({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) => (
  <Card aria-labelledby="safety-title">
    <CardTitle id="safety-title" className={headingLevel === 3 ? 'text-sm' : undefined}>
      Privacy and safety
    </CardTitle>
    <CardDescription>Who you blocked or muted, with undo.</CardDescription>
    <ul className="mt-4 grid gap-3 sm:grid-cols-2">
      {LINKS.map((l) => (
        <li key={l.href}>
          <Link
            href={l.href}
            className="flex h-full flex-col rounded-xl border border-line bg-elevated px-4 py-3 transition-colors hover:border-line-strong focus-visible:ring-2 focus-visible:ring-accent/50 focus-visible:outline-none"
          >
            <span className="text-sm font-medium text-ink">{l.label} →</span>
            <span className="mt-0.5 text-xs text-ink-muted">{l.description}</span>
          </Link>
        </li>
      ))}
    </ul>
  </Card>
);
