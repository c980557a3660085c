/** How groups are described in lists and headers. Pure: no I/O. */
import type { TGroup } from '@/lib/client/queries/groups';

const KIND_LABELS: Record<TGroup['kind'], string> = {
  organization: 'Organization',
  tier: 'Tier',
  theme: 'Theme',
  player: 'Player group',
};

export const groupKindLabel = (group: Pick<TGroup, 'kind' | 'tier' | 'organization'>) => {
  if (group.kind === 'organization' && group.organization) return `${group.organization.name} (${group.organization.ticker})`;
  if (group.kind === 'tier' && group.tier) return `${group.tier} tier`;
  return KIND_LABELS[group.kind] ?? 'Group';
};

export const memberCountLabel = (n: number) => (n === 1 ? '1 member' : `${n.toLocaleString('en-US')} members`);

export const groupHref = (groupId: string) => `/groups/${encodeURIComponent(groupId)}`;
