import type { ReactNode } from 'react';
import { LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { UserIcon } from '@/components/ui/icons';

/** Shown where a page needs a signed-in user and there is none. */
export const SignInPrompt = ({
  title = 'Sign in to continue',
  description,
  icon = <UserIcon />,
  headingLevel = 2,
}: {
  title?: string;
  description: string;
  icon?: ReactNode;
  /** 1 where the prompt is all the page shows. */
  headingLevel?: 1 | 2;
}) => (
  <EmptyState
    headingLevel={headingLevel}
    icon={icon}
    title={title}
    description={description}
    action={
      <LinkButton href="/sign-in" variant="primary">
        Sign in
      </LinkButton>
    }
  />
);
