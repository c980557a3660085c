import Link from 'next/link';
import type { ReactNode } from 'react';
import { Avatar } from '@/components/ui/avatar';
import type { TGroup } from '@/lib/client/queries/groups';
import { groupHref, groupKindLabel, memberCountLabel } from './format';

/** A group in a list: its name (a link to its page), what it is, its size, its description and an action. */
export const GroupRow = ({ group, action, children }: { group: TGroup; action?: ReactNode; children?: ReactNode }) => (
  <li className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 sm:flex-row sm:items-start">
    <div className="flex min-w-0 flex-1 items-start gap-3">
      <span aria-hidden="true">
        <Avatar name={group.organization?.ticker ?? group.name} />
      </span>
      <div className="min-w-0 flex-1">
        <h3 className="text-sm font-semibold text-ink">
          <Link href={groupHref(group.id)} className="hover:underline">
            {group.name}
          </Link>
        </h3>
        <p className="mt-0.5 text-xs text-ink-muted">
          {groupKindLabel(group)} · {memberCountLabel(group.memberCount)} · {group.visibility === 'open' ? 'Open' : 'Invite only'}
        </p>
        {group.description && <p className="mt-1.5 line-clamp-2 text-sm text-ink-muted">{group.description}</p>}
        {children}
      </div>
    </div>
    {action && <div className="flex shrink-0 justify-end">{action}</div>}
  </li>
);
