/**
 * The permission model: what each role may do, and the check the operation core runs (a holder's
 * permission set against an operation's `requires`).
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors/app-error';
import { PERMISSIONS, assertPermissions, hasPermissions, isPrivileged, missingPermissions, permissionsOf, roleOf, type TPermission } from './permissions';

const holder = (...permissions: TPermission[]) => ({ permissions: new Set(permissions) });
const refusal = (fn: () => void) => {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? `${e.status} ${e.code} ${e.message}` : String(e);
  }
  return null;
};

describe('permissions', () => {
  it('a player reads, trades, is social and keeps their account, but neither moderates nor administers', () => {
    const player = permissionsOf('player');
    expect([...player].sort()).toEqual(['account', 'read', 'social', 'trade']);
    expect(player.has('admin')).toBe(false);
    expect(player.has('moderate')).toBe(false);
  });

  it('a moderator is a player who moderates; an administrator has every permission', () => {
    expect([...permissionsOf('moderator')].sort()).toEqual(['account', 'moderate', 'read', 'social', 'trade']);
    expect([...permissionsOf('admin')].sort()).toEqual([...PERMISSIONS].sort());
  });

  it('the role of a caller follows its flags: every administrator is a moderator', () => {
    expect(roleOf({ isAdmin: false, isModerator: false })).toBe('player');
    expect(roleOf({ isAdmin: false, isModerator: true })).toBe('moderator');
    expect(roleOf({ isAdmin: true, isModerator: false })).toBe('admin');
    expect(roleOf({ isAdmin: true, isModerator: true })).toBe('admin');
  });

  it('a holder has what it requires only when it has every permission of the list', () => {
    expect(hasPermissions(holder('read'), [])).toBe(true);
    expect(hasPermissions(holder('read', 'trade'), ['read'])).toBe(true);
    expect(hasPermissions(holder('read'), ['read', 'trade'])).toBe(false);
    expect(missingPermissions(holder('read'), ['trade', 'read', 'social'])).toEqual(['trade', 'social']);
  });

  it('refuses 403 FORBIDDEN a holder whose set lacks a required permission, with the messages the role checks gave', () => {
    const player = { permissions: permissionsOf('player') };
    expect(refusal(() => assertPermissions(player, ['admin']))).toBe('403 FORBIDDEN Administrator only');
    expect(refusal(() => assertPermissions(player, ['read', 'admin']))).toBe('403 FORBIDDEN Administrator only');
    expect(refusal(() => assertPermissions(player, ['moderate']))).toBe('403 FORBIDDEN Moderators and administrators only');
    expect(refusal(() => assertPermissions({ permissions: permissionsOf('moderator') }, ['moderate']))).toBeNull();
    expect(refusal(() => assertPermissions({ permissions: permissionsOf('moderator') }, ['admin']))).toBe('403 FORBIDDEN Administrator only');
    // The set is what counts, not the role: a set narrowed to reading (an API key's scopes, later) cannot trade.
    expect(refusal(() => assertPermissions(holder('read'), ['trade']))).toBe('403 FORBIDDEN Not permitted: this operation requires trade');
    expect(refusal(() => assertPermissions(holder('trade', 'social'), ['read']))).toMatch(/^403 FORBIDDEN/);
    expect(refusal(() => assertPermissions(holder('read', 'trade'), ['trade']))).toBeNull();
    // Nothing to check without a holder (an anonymous public call, the scheduler) or without requires.
    expect(refusal(() => assertPermissions(null, ['read']))).toBeNull();
    expect(refusal(() => assertPermissions(holder(), undefined))).toBeNull();
  });

  it('privileged operations are those requiring what a player lacks', () => {
    expect(isPrivileged(['read', 'admin'])).toBe(true);
    expect(isPrivileged(['moderate'])).toBe(true);
    expect(isPrivileged(['read'])).toBe(false);
    expect(isPrivileged(['trade', 'social', 'account'])).toBe(false);
    expect(isPrivileged([])).toBe(false);
    expect(isPrivileged(undefined)).toBe(false);
  });
});
