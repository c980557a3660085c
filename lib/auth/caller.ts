/**
 * The caller: who a service acts for, whichever transport carried the request (REST, A2A). One
 * name for the person everywhere in lib/ (never viewerId, meId or me; "actor" means an NPC actor
 * only). Pure, no I/O: the route wrapper derives it from the verified principal.
 */
import type { TPrincipal } from './principal';

export type TCaller = {
  userId: string;
  username: string;
  isAdmin: boolean;
  isAgent: boolean;
  /** The referrer of the caller's account, who earns half of the caller's trading fees. */
  referredById: string | null;
};

export const toCaller = (p: TPrincipal): TCaller => ({
  userId: p.userId,
  username: p.username,
  isAdmin: p.isAdmin,
  isAgent: p.isAgent,
  referredById: p.user.referredById ?? null,
});
