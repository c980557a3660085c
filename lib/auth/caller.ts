/**
 * The caller: who a service acts for, whichever transport carried the request (REST, A2A). One
 * name for the person everywhere in lib/ (never viewerId, meId or me; "actor" means an NPC actor
 * only). Pure, no I/O: the route wrapper derives it from the verified principal.
 */
import type { TUserRow } from '@/db/schema';

export type TCaller = {
  userId: string;
  username: string;
  isAdmin: boolean;
  /** Works the report queue (every administrator is one). */
  isModerator: boolean;
  isAgent: boolean;
  /** The referrer of the caller's account, who earns half of the caller's trading fees. */
  referredById: string | null;
  /**
   * The API key the call was made with (lib/api-keys), if any: trades and orders record it, and
   * its heartbeat cancels the orders it placed. Absent for a token or a session.
   */
  apiKeyId?: string;
};

/** The caller a principal (lib/principals/principal.ts) acts as: its flags and its user's referrer. */
export function toCaller(
  p: Pick<TCaller, 'userId' | 'username' | 'isAdmin' | 'isModerator' | 'isAgent'> & { user: Pick<TUserRow, 'referredById'>; apiKey?: { id: string } },): TCaller {
  return {
  userId: p.userId,
  username: p.username,
  isAdmin: p.isAdmin,
  isModerator: p.isModerator,
  isAgent: p.isAgent,
  referredById: p.user.referredById ?? null,
  ...(p.apiKey ? { apiKeyId: p.apiKey.id } : {}),
};
}

/**
 * The caller for a user acting without a request (scripts, tests): from their row, so an
 * administrator is whoever the row flags (ADMIN_SUBJECTS needs a token subject).
 */
export function callerOfUser(
  u: Pick<TUserRow, 'id' | 'username' | 'isAdmin' | 'isAgent' | 'referredById'> & { isModerator?: boolean },): TCaller {
  return {
  userId: u.id,
  username: u.username,
  isAdmin: u.isAdmin,
  isModerator: u.isAdmin || !!u.isModerator,
  isAgent: u.isAgent,
  referredById: u.referredById ?? null,
};
}

/**
 * An NPC actor as the caller: the game tick has them post, reply, like, share and trade through
 * the same services as players. NPCs are never administrators or agents and have no referrer.
 */
export function npcCaller(actor: { userId: string; username: string }): TCaller {
  return {
  userId: actor.userId,
  username: actor.username,
  isAdmin: false,
  isModerator: false,
  isAgent: false,
  referredById: null,
};
}
