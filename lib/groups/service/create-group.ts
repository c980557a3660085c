/**
 * Creating a group with its chat (the world seed): the chat (a group chat named after the group),
 * the group row, the owner and the founding members in both. Ids are the caller's, so seeding is
 * idempotent: a group that exists is left as it is.
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { chats, groups, type TGroupRow } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { seedGroupMember } from './membership';

export type TGroupSeed = Pick<TGroupRow, 'id' | 'name' | 'description' | 'kind' | 'visibility' | 'ownerId' | 'organizationId' | 'tier'> & { memberIds: string[] };

/** Creates the group unless it exists; returns whether it did. */
export async function createGroup(tx: DbOrTx, g: TGroupSeed) {
  const [exists] = await tx.select({ id: groups.id }).from(groups).where(eq(groups.id, g.id));
  if (exists) return false;
  const at = now();
  const chatId = `chat-${g.id}`;
  await tx.insert(chats).values({ id: chatId, name: g.name, isGroup: true, createdBy: g.ownerId, lastActivityAt: at, createdAt: at });
  await tx.insert(groups).values({
    id: g.id,
    name: g.name,
    description: g.description,
    kind: g.kind,
    visibility: g.visibility,
    ownerId: g.ownerId,
    chatId,
    organizationId: g.organizationId,
    tier: g.tier,
    memberCount: 0,
    createdAt: at,
  });
  const group = { id: g.id, chatId };
  await seedGroupMember(tx, group, g.ownerId, 'owner');
  for (const id of g.memberIds) if (id !== g.ownerId) await seedGroupMember(tx, group, id, 'member');
  return true;
}
