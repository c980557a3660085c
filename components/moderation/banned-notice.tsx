'use client';

import { Notice } from '@/components/ui/error-state';
import { useSession } from '@/lib/client/queries/users';

/**
 * Tells a banned user, where they would write, that their account is banned: they can still
 * read, but the server refuses every post, trade and change (403 USER_BANNED). Nothing otherwise.
 */
export const BannedNotice = ({ className }: { className?: string }) => {
  const session = useSession();
  if (!session.user?.isBanned) return null;
  return (
    <Notice tone="error" className={className}>
      Your account is banned: you can read, but not post, trade or change anything.
    </Notice>
  );
};
