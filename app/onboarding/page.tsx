import type { Metadata } from 'next';
import { OnboardingWizard } from '@/components/onboarding/onboarding-wizard';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Welcome' };

export default function OnboardingPage() {
  return (
    <div className="mx-auto flex max-w-2xl flex-col">
      <PageHeader title="Welcome to Playmoney" description="Two quick steps and you’re ready to trade." />
      <OnboardingWizard />
    </div>
  );
}
