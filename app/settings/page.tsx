import type { Metadata } from 'next';
import Link from 'next/link';
import { ApiKeysLink } from '@/components/api-keys/api-keys-link';
import { SafetyLinks } from '@/components/moderation/safety-links';
import { NotificationSettingsLink } from '@/components/notifications/notification-settings-link';
import { LinkedAccounts } from '@/components/onboarding/linked-accounts';
import { PageHeader } from '@/components/ui/page-header';
import { WalletCard } from '@/components/wallets/connect-wallet';

export const metadata: Metadata = { title: 'Settings' };

export default function SettingsPage() {
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
      <PageHeader
        title="Settings"
        description={
          <>
            Your name, avatar and bio are on{' '}
            <Link href="/profile/edit" className="text-accent underline underline-offset-2 hover:no-underline">
              Edit profile
            </Link>
            .
          </>
        }
      />
      <LinkedAccounts />
      <WalletCard />
      <NotificationSettingsLink />
      <ApiKeysLink />
      <SafetyLinks />
    </div>
  );
}
