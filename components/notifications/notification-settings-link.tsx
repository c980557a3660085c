import Link from 'next/link';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';

const LINKS = [
  { href: '/settings/notifications', label: 'Notification settings', description: 'For each kind: in the app, in a daily digest, or off.' },
  { href: '/notifications/digest', label: 'Your digest', description: 'What you keep for the daily digest, grouped.' },
] as const;

/** The settings page's way to the notification preferences and the digest. */
export const NotificationSettingsLink = () => (
  <Card aria-labelledby="notifications-settings-title">
    <CardTitle id="notifications-settings-title">Notifications</CardTitle>
    <CardDescription>Choose what reaches you, and how.</CardDescription>
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
