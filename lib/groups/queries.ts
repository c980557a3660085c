/**
 * Group reads: the group rows as the API shows them to one reader (owner, organization, member
 * count, whether the reader is a member and holds a pending invite), in one statement for any
 * number of groups. Groups whose owner is in a block with the reader are left out of listings.
 */
import 'server-only';
import { eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { groupInvites, groupMembers, groups, organizations, users, type TGroupRow } from '@/db/schema';
import { AppError } from '@/lib/errors/app-error';
import { canSeeUser } from '@/lib/moderation/visibility';
import { toUserSummary } from '@/lib/users/dto';
import type { TGroup } from './dto';

type TGroupRaw = {
  id: string;
  name: string;
  description: string;
  kind: TGroup['kind'];
  visibility: TGroup['visibility'];
  chat_id: string;
  tier: string | null;
  member_count: number | string;
  created_at: string | Date;
  owner_id: string;
  owner_username: string;
  owner_display_name: string;
  owner_image: string | null;
  owner_is_actor: boolean;
  org_id: string | null;
  org_name: string | null;
  org_ticker: string | null;
  is_member: boolean;
  has_invite: boolean;
};

const toGroupDto = (r: TGroupRaw): TGroup => ({
  id: r.id,
  name: r.name,
  description: r.description,
  kind: r.kind,
  visibility: r.visibility,
  owner: toUserSummary(
    { id: r.owner_id, username: r.owner_username, displayName: r.owner_display_name, profileImageUrl: r.owner_image, isActor: r.owner_is_actor },
    { reputation: false },
  ),
  chatId: r.chat_id,
  organization: r.org_id ? { id: r.org_id, name: r.org_name!, ticker: r.org_ticker! } : null,
  tier: r.tier,
  memberCount: Number(r.member_count),
  isMember: !!r.is_member,
  hasPendingInvite: !!r.has_invite,
  createdAt: new Date(r.created_at).toISOString(),
});

/** Groups matching `where` (SQL over `g`), as `readerId` sees them, in `orderBy` order. */
export async function selectGroups(db: DbOrTx, opts: { readerId: string | null; where: SQL; orderBy?: SQL; limit?: number; offset?: number }) {
  const me = opts.readerId ?? '';
  const rows = rowsOf<TGroupRaw>(
    await db.execute(sql`
      select g.id, g.name, g.description, g.kind, g.visibility, g.chat_id, g.tier, g.member_count, g.created_at,
        u.id as owner_id, u.username as owner_username, u.display_name as owner_display_name,
        u.profile_image_url as owner_image, u.is_actor as owner_is_actor,
        o.id as org_id, o.name as org_name, o.ticker as org_ticker,
        exists (select 1 from ${groupMembers} gm where gm.group_id = g.id and gm.user_id = ${me}) as is_member,
        exists (select 1 from ${groupInvites} gi where gi.group_id = g.id and gi.user_id = ${me} and gi.status = 'pending') as has_invite
      from ${groups} g
      join ${users} u on u.id = g.owner_id
      left join ${organizations} o on o.id = g.organization_id
      where ${opts.where} and ${canSeeUser(sql`g.owner_id`, opts.readerId)}
      order by ${opts.orderBy ?? sql`g.member_count desc, g.name, g.id`}
      ${opts.limit === undefined ? sql`` : sql`limit ${opts.limit}`}
      ${opts.offset === undefined ? sql`` : sql`offset ${opts.offset}`}`),
  );
  return rows.map(toGroupDto);
}

/** How many groups match `where` for `readerId` (the listing's total). */
export async function countGroups(db: DbOrTx, opts: { readerId: string | null; where: SQL }) {
  const [r] = rowsOf<{ n: string | number }>(
    await db.execute(sql`select count(*) as n from ${groups} g where ${opts.where} and ${canSeeUser(sql`g.owner_id`, opts.readerId)}`),
  );
  return Number(r?.n ?? 0);
}

/** One group as `readerId` sees it, or GROUP_NOT_FOUND. */
export async function requireGroupDto(db: DbOrTx, groupId: string, readerId: string | null) {
  const [group] = await selectGroups(db, { readerId, where: sql`g.id = ${groupId}` });
  if (!group) throw new AppError('GROUP_NOT_FOUND', 'Group not found', { groupId });
  return group;
}

/** The group row locked for a membership change, or GROUP_NOT_FOUND. */
export async function lockGroup(tx: DbOrTx, groupId: string): Promise<TGroupRow> {
  const [g] = await tx.select().from(groups).where(eq(groups.id, groupId)).for('update');
  if (!g) throw new AppError('GROUP_NOT_FOUND', 'Group not found', { groupId });
  return g;
}
