import Link from 'next/link';
import { Avatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { BotBadge } from '@/components/ui/bot-badge';
import { cn } from '@/components/ui/cn';
import { profileHref } from '@/lib/users/links';

type TRankedUser = { username: string; displayName: string; profileImageUrl: string | null; isActor: boolean; isBot?: boolean };

/**
 * A player in a ranking's row: avatar, the name linking to their profile, an NPC badge for actors,
 * an Agent badge for automated players (`kind`), a Bot badge for a player who trades by API key
 * (`isBot`, where the ranking sends it) and a "You" badge on the caller's own row. Shared
 * by the leaderboard and the league tables.
 */
export const RankedPlayer = ({
  user,
  kind,
  isYou = false,
  size = 'sm',
  className,
}: {
  user: TRankedUser;
  kind?: 'user' | 'agent' | 'actor';
  isYou?: boolean;
  size?: 'sm' | 'md';
  className?: string;
}) => {
  const name = user.displayName || user.username;
  return (
    <span className={cn('flex min-w-0 items-center gap-3', className)}>
      <Avatar src={user.profileImageUrl} name={name} size={size} />
      <span className="min-w-0">
        <span className="flex min-w-0 items-center gap-1.5">
          <Link href={profileHref(user)} className="truncate text-sm font-medium text-ink hover:underline">
            {name}
          </Link>
          {user.isActor && <Badge tone="accent">NPC</Badge>}
          {kind === 'agent' && <Badge tone="neutral">Agent</Badge>}
          {user.isBot && kind !== 'agent' && <BotBadge />}
          {isYou && <Badge tone="warn">You</Badge>}
        </span>
        <span className="block truncate text-xs text-ink-muted">@{user.username}</span>
      </span>
    </span>
  );
};
