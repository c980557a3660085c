import Link from 'next/link';
import { PageHeader } from '@/components/ui/page-header';
import { PeopleSettings } from './people-settings';

/** A settings page listing the people the reader blocked or muted, under a breadcrumb back to Settings. */
export const PeopleSettingsPage = ({ kind, title, description }: { kind: 'blocks' | 'mutes'; title: string; description: string }) => (
  <div className="mx-auto max-w-2xl">
    <nav aria-label="Breadcrumb" className="mb-2 text-sm text-ink-muted">
      <Link href="/settings" className="hover:text-ink hover:underline">
        Settings
      </Link>
    </nav>
    <PageHeader title={title} description={description} />
    <PeopleSettings kind={kind} />
  </div>
);
