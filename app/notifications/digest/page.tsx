import type { Metadata } from 'next';
import { NotificationDigest } from '@/components/notifications/notification-digest';

export const metadata: Metadata = { title: 'Digest' };

export default function NotificationDigestPage() {
  return <NotificationDigest />;
}
