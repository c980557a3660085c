'use client';

import type { ReactNode } from 'react';
import { LinkButton } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useSession } from '@/lib/client/queries/users';

type TSessionUser = NonNullable<ReturnType<typeof useSession>['user']>;

/**
 * A trading panel's body: the form for the signed-in user, skeletons in the form's shape while
 * the session loads, and a sign-in link for visitors (or a note when the account did not load).
 */
export const TradeSessionGate = ({
  skeletons,
  signedOutMessage,
  children,
}: {
  /** Class names of the loading skeletons, top to bottom. */
  skeletons: readonly string[];
  signedOutMessage: string;
  children: (user: TSessionUser) => ReactNode;
}) => {
  const session = useSession();
  if (session.isPending) {
    return (
      <div role="status" aria-label="Loading" className="flex flex-col gap-3">
        {skeletons.map((className, i) => (
          <Skeleton key={i} className={className} />
        ))}
      </div>
    );
  }
  if (session.user) return children(session.user);
  return (
    <div className="flex flex-col items-start gap-3">
      <p className="text-sm text-ink-muted">{session.isSignedOut ? signedOutMessage : 'We could not load your account, so trading is unavailable right now.'}</p>
      <LinkButton href="/sign-in" className="w-full">
        Sign in to trade
      </LinkButton>
    </div>
  );
};
