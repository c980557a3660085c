import type { Metadata } from 'next';
import Link from 'next/link';
import { NotificationPreferences } from '@/components/notifications/notification-preferences';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Notification settings' };

export default function NotificationSettingsPage() {
  return (
    <div className="mx-auto flex max-w-2xl flex-col">
      <PageHeader
        title="Notifications"
        description={
          <>
            For each kind: in the app, in the daily digest, or off.{' '}
            <Link href="/notifications" className="text-accent underline underline-offset-2 hover:no-underline">
              Back to notifications
            </Link>
          </>
        }
      />
      <NotificationPreferences />
    </div>
  );
}
