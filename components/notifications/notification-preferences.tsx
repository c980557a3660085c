'use client';

/**
 * The Notifications settings: one native select per kind (in the app, in the daily digest, off),
 * saved as soon as it changes (PUT /api/notifications/preferences through React Query), with the
 * outcome announced in a live region. Keyboard and screen readers get the platform's own picker,
 * each labelled by its kind.
 */
import Link from 'next/link';
import { useState } from 'react';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { BellIcon } from '@/components/ui/icons';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import {
  useNotificationPreferences,
  useSetNotificationPreferences,
  type TNotificationChannel,
  type TPreferenceKind,
} from '@/lib/client/queries/notifications';
import { useSession } from '@/lib/client/queries/users';

const CHANNELS: { value: TNotificationChannel; label: string }[] = [
  { value: 'in_app', label: 'In the app' },
  { value: 'digest', label: 'Daily digest' },
  { value: 'off', label: 'Off' },
];

const GROUPS: { id: string; title: string; description: string; kinds: TPreferenceKind[] }[] = [
  {
    id: 'trading',
    title: 'Trading',
    description: 'Your orders, positions and the markets you hold.',
    kinds: ['order_filled', 'order_expired', 'order_triggered', 'payout', 'resolution', 'price_move', 'liquidation_warning', 'liquidation', 'funding', 'trade'],
  },
  { id: 'social', title: 'Social', description: 'What other players do with your posts and profile.', kinds: ['comment', 'reply', 'mention', 'reaction', 'share', 'follow'] },
  { id: 'account', title: 'Account', description: 'Your reports, moderation, and the daily digest itself.', kinds: ['report_outcome', 'moderation', 'digest'] },
];

export const NotificationPreferences = () => {
  const session = useSession();
  const prefs = useNotificationPreferences({ isEnabled: session.isSignedIn });
  const save = useSetNotificationPreferences();
  const [status, setStatus] = useState('');

  if (session.isPending || (session.isSignedIn && prefs.isPending)) {
    return (
      <div role="status" aria-label="Loading notification settings" className="flex flex-col gap-2">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-40 w-full rounded-2xl" />
        ))}
      </div>
    );
  }
  if (!session.isSignedIn) {
    return <SignInPrompt icon={<BellIcon />} title="Sign in to choose your notifications" description="Pick, for each kind, whether it shows up in the app, waits for the daily digest, or is not sent at all." />;
  }
  if (prefs.isError) return <ErrorState message={describeError(prefs.error)} onRetry={() => prefs.refetch()} isRetrying={prefs.isFetching} />;

  const byKind = new Map((prefs.data?.preferences ?? []).map((p) => [p.kind, p]));
  const onChange = (kind: TPreferenceKind, label: string, channel: TNotificationChannel) => {
    setStatus(`Saving ${label}…`);
    save.mutate([{ kind, channel }], {
      onSuccess: () => setStatus(`${label}: ${CHANNELS.find((c) => c.value === channel)!.label.toLowerCase()}. Saved.`),
      onError: () => setStatus(''),
    });
  };

  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm text-ink-muted">
        Notifications kept for the digest do not count as unread; read them on{' '}
        <Link href="/notifications/digest" className="text-accent underline underline-offset-2 hover:no-underline">
          your digest
        </Link>
        , summed up once a day.
      </p>
      {save.isError && <Notice tone="error">{describeError(save.error)}</Notice>}
      <p role="status" aria-live="polite" className="sr-only" data-testid="notification-preferences-status">
        {status}
      </p>
      {GROUPS.map((g) => (
        <Card key={g.id} aria-labelledby={`prefs-${g.id}`}>
          <CardTitle id={`prefs-${g.id}`}>{g.title}</CardTitle>
          <CardDescription>{g.description}</CardDescription>
          <ul className="mt-4 divide-y divide-line">
            {g.kinds.map((kind) => {
              const p = byKind.get(kind);
              if (!p) return null;
              const id = `pref-${kind}`;
              // The digest is not digested; a moderator's notice is never off (the API refuses both).
              const options = kind === 'digest' ? CHANNELS.filter((c) => c.value !== 'digest') : kind === 'moderation' ? CHANNELS.filter((c) => c.value !== 'off') : CHANNELS;
              return (
                <li key={kind} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <span className="min-w-0 flex-1">
                    <label htmlFor={id} className="block text-sm font-medium text-ink">
                      {p.label}
                    </label>
                    <span id={`${id}-hint`} className="block text-xs text-ink-muted">
                      {p.description}
                    </span>
                  </span>
                  <Select
                    id={id}
                    name={kind}
                    aria-describedby={`${id}-hint`}
                    className="w-44"
                    value={p.channel}
                    onChange={(e) => onChange(kind, p.label, e.target.value as TNotificationChannel)}
                  >
                    {options.map((c) => (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ))}
                  </Select>
                </li>
              );
            })}
          </ul>
        </Card>
      ))}
    </div>
  );
};
