import { Avatar } from './avatar';
import { Badge } from './badge';
import { cn } from './cn';

type TUserLike = { username: string; displayName: string | null; profileImageUrl: string | null; isActor?: boolean };

/**
 * A person in a list row: avatar, display name (with an NPC badge for actors) and @username.
 * Laid out by the row it sits in; `className` goes on the name block.
 */
export const UserIdentity = ({ user, className }: { user: TUserLike; className?: string }) => {
  const name = user.displayName || user.username;
  return (
    <>
      <Avatar src={user.profileImageUrl} name={name} />
      <span className={cn('min-w-0', className)}>
        <span className="flex items-center gap-2">
          <span className="truncate text-sm font-medium text-ink">{name}</span>
          {user.isActor && <Badge tone="accent">NPC</Badge>}
        </span>
        <span className="block truncate text-xs text-ink-muted">@{user.username}</span>
      </span>
    </>
  );
};
