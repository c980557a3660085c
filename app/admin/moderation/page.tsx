import type { Metadata } from 'next';
import { ModerationTrail } from '@/components/admin/moderation-trail';

export const metadata: Metadata = { title: 'Audit trail' };

export default function AdminModerationPage() {
  return <ModerationTrail />;
}
