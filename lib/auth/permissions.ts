/**
 * Permissions: what an operation requires and what a caller may do. Pure, no I/O.
 *
 * An operation declares `requires` (lib/contracts/endpoint.ts, the A2A method table); a principal
 * carries a permission set, and the operation core refuses a call whose principal lacks one of
 * the required permissions. Today the set is the one of the caller's role; an API key will narrow
 * it to its scopes (read, trade, social: the API-key section of the specification), so every
 * check reads the principal's set, never its role.
 *
 * - read: every GET and A2A read method
 * - trade: every call that moves money or points
 * - social: posts, comments, reactions, follows, chats, groups, blocks, mutes, reports, notifications
 * - account: the caller's own account: sign-in and sign-out, profile, onboarding, wallets, waitlist
 * - moderate: the report queue
 * - admin: the administrator's routes
 */
import { AppError } from '@/lib/errors/app-error';

export const PERMISSIONS = ['read', 'trade', 'social', 'account', 'moderate', 'admin'] as const;
export type TPermission = (typeof PERMISSIONS)[number];

export type TPrincipalRole = 'player' | 'moderator' | 'admin';

/** What each role may do: a moderator is a player who works the report queue; an administrator is also a moderator. */
const ROLE_PERMISSIONS: Record<TPrincipalRole, readonly TPermission[]> = {
  player: ['read', 'trade', 'social', 'account'],
  moderator: ['read', 'trade', 'social', 'account', 'moderate'],
  admin: ['read', 'trade', 'social', 'account', 'moderate', 'admin'],
};

/** A caller's role from its flags (every administrator is a moderator). */
export function roleOf(flags: { isAdmin: boolean; isModerator: boolean }): TPrincipalRole {
  if (flags.isAdmin) return 'admin';
  return flags.isModerator ? 'moderator' : 'player';
}

/** The permissions of a role. */
export function permissionsOf(role: TPrincipalRole): ReadonlySet<TPermission> {
  return new Set(ROLE_PERMISSIONS[role]);
}

/** The required permissions `holder` lacks, in the order required ([] when it has them all). */
export function missingPermissions(holder: { permissions: ReadonlySet<TPermission> }, requires: readonly TPermission[]): TPermission[] {
  return requires.filter((p) => !holder.permissions.has(p));
}

/** Whether `holder` has every permission of `requires` (an empty list asks for none). */
export function hasPermissions(holder: { permissions: ReadonlySet<TPermission> }, requires: readonly TPermission[]): boolean {
  return missingPermissions(holder, requires).length === 0;
}

/**
 * 403 FORBIDDEN when `holder`'s permission set lacks one of `requires`; nothing to check without a
 * holder (the anonymous caller of a public operation, the scheduler). The message names what is
 * missing, as the role checks it replaced did ("Administrator only").
 */
export function assertPermissions(
  holder: { permissions: ReadonlySet<TPermission>; apiKey?: { scopes: readonly TPermission[] } } | null,
  requires: readonly TPermission[] | undefined,
): void {
  if (!holder || !requires) return;
  const missing = missingPermissions(holder, requires);
  // A call made with an API key: what it lacks is outside the key's scopes (CONTRACT.md "API keys").
  if (missing.length > 0 && holder.apiKey) {
    throw new AppError('INSUFFICIENT_SCOPE', `This API key cannot do this: it needs ${missing.join(', ')}`, {
      required: missing,
      scopes: [...holder.apiKey.scopes],
    });
  }
  if (missing.includes('admin')) throw new AppError('FORBIDDEN', 'Administrator only');
  if (missing.includes('moderate')) throw new AppError('FORBIDDEN', 'Moderators and administrators only');
  if (missing.length > 0) throw new AppError('FORBIDDEN', `Not permitted: this operation requires ${missing.join(', ')}`);
}

/**
 * Whether an operation requires a permission that not every signed-in player has (moderate,
 * admin): the core loads such an operation's caller before it looks at any input, so a caller
 * without the permission learns nothing of the operation's schema.
 */
export function isPrivileged(requires: readonly TPermission[] | undefined): boolean {
  const player = ROLE_PERMISSIONS.player;
  return !!requires?.some((p) => !player.includes(p));
}
