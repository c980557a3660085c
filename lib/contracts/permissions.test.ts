/**
 * Every operation declares the permissions it requires (lib/auth/permissions.ts), consistently
 * with what it does, and the roles get exactly what they got before permissions: a player every
 * operation but the moderators' and administrators', a moderator the report queue too, an
 * administrator everything. Walked from the contracts and the A2A method table, so a new route
 * or method is held to the same rules.
 */
import { describe, expect, it } from 'vitest';
import { A2A_METHOD_TABLE } from '@/lib/a2a/methods';
import { PERMISSIONS, assertPermissions, hasPermissions, isPrivileged, permissionsOf, type TPermission } from '@/lib/auth/permissions';
import { endpoints } from '.';
import { apiMethodNotAllowed, apiNotFound, apiPreflight } from './fallback';

const WRITES: readonly TPermission[] = ['trade', 'social', 'account', 'moderate', 'admin'];
const name = (e: (typeof endpoints)[number]) => `${e.method} ${e.path} (${e.id})`;
const withCaller = endpoints.filter((e) => e.auth !== 'cron');

describe('the permissions of every operation', () => {
  it('every operation with a caller declares what it requires, from the known permissions, once each; the scheduler has no principal', () => {
    expect(withCaller.length).toBeGreaterThan(150);
    for (const e of endpoints) {
      if (e.auth === 'cron') {
        expect(e.requires, name(e)).toBeUndefined();
        continue;
      }
      expect(Array.isArray(e.requires), name(e)).toBe(true);
      for (const p of e.requires) expect(PERMISSIONS, name(e)).toContain(p);
      expect(new Set(e.requires).size, name(e)).toBe(e.requires.length);
      // Only the JSON-RPC transport requires nothing of its own: each of its calls does.
      if (!e.jsonRpc) expect(e.requires.length, name(e)).toBeGreaterThan(0);
    }
    // The wrapper's own answers (404, 405, preflight) are not operations: anyone gets them.
    for (const e of [apiNotFound, apiMethodNotAllowed, apiPreflight]) expect(e.requires).toEqual([]);
  });

  it('a GET requires read; any other method requires more than read', () => {
    for (const e of withCaller) {
      if (e.method === 'GET') expect(e.requires, name(e)).toContain('read');
      else if (!e.jsonRpc) expect(e.requires.some((p) => WRITES.includes(p)), name(e)).toBe(true);
    }
  });

  it("the administrators' paths require admin, the report queue and content moderation moderate, and only those need a token", () => {
    const adminPaths = withCaller.filter((e) => e.path.startsWith('/api/admin/'));
    expect(adminPaths.length).toBeGreaterThan(10);
    // Moderators work reports and act on content (issue 35): remove or restore a post or comment, warn, the trail.
    const moderated = (path: string) =>
      /^\/api\/admin\/(reports|moderation|posts\/\{id\}\/(remove|restore)|comments\/\{id\}\/(remove|restore)|users\/\{userId\}\/warn)(\/|$)/.test(path);
    for (const e of adminPaths) {
      if (moderated(e.path)) expect(e.requires, name(e)).toContain('moderate');
      else expect(e.requires, name(e)).toContain('admin');
    }
    // A privileged operation needs a token; the metrics scrape also admits its own secret, never an anonymous caller.
    for (const e of withCaller.filter((x) => isPrivileged(x.requires))) expect(['user', 'metrics'], name(e)).toContain(e.auth);
    expect(endpoints.filter((e) => e.auth === 'metrics').map((e) => e.id)).toEqual(['metrics.prometheus']);
  });

  it('a money-moving call requires trade and accepts an Idempotency-Key; every call that moves money or points requires trade, account or admin', () => {
    const trades = withCaller.filter((e) => e.requires.includes('trade'));
    expect(trades.map((e) => e.id)).toEqual(expect.arrayContaining(['predictions.buy', 'predictions.sell', 'perps.open', 'perps.close', 'pools.deposit', 'pools.withdraw', 'points.transfer']));
    for (const e of trades) expect(e.idempotent, name(e)).toBe(true);
    for (const e of withCaller.filter((x) => x.idempotent)) {
      expect(e.requires.some((p) => p === 'trade' || p === 'account' || p === 'admin'), name(e)).toBe(true);
    }
  });

  it('posts, comments, reactions, follows, chats, groups and reports require social', () => {
    const socialTags = new Set(['posts', 'comments', 'reactions', 'follows', 'chats', 'groups', 'moderation']);
    const writes = withCaller.filter((e) => e.method !== 'GET' && socialTags.has(e.tag));
    expect(writes.length).toBeGreaterThan(25);
    for (const e of writes) expect(e.requires, name(e)).toEqual(['social']);
  });

  it('a player may call every operation but the privileged ones; a moderator the report queue too; an administrator all', () => {
    const player = { permissions: permissionsOf('player') };
    const moderator = { permissions: permissionsOf('moderator') };
    const admin = { permissions: permissionsOf('admin') };
    expect(player.permissions.has('admin') || player.permissions.has('moderate')).toBe(false);
    for (const e of withCaller) {
      const byAdmin = e.requires.includes('admin');
      const byModerator = e.requires.includes('moderate');
      expect(hasPermissions(player, e.requires), name(e)).toBe(!byAdmin && !byModerator);
      expect(hasPermissions(moderator, e.requires), name(e)).toBe(!byAdmin);
      expect(hasPermissions(admin, e.requires), name(e)).toBe(true);
    }
  });

  it('a principal whose permission set lacks any one required permission is refused 403 FORBIDDEN, whatever its role', () => {
    for (const e of withCaller) {
      for (const lacking of e.requires) {
        const narrowed = { permissions: new Set(PERMISSIONS.filter((p) => p !== lacking)) };
        expect(() => assertPermissions(narrowed, e.requires), `${name(e)} without ${lacking}`).toThrow(expect.objectContaining({ code: 'FORBIDDEN', status: 403 }));
      }
    }
  });
});

describe('the permissions of every A2A method', () => {
  it('a read method requires read; a write requires social (blocks, mutes, reports) or trade (payments, orders and trades, which move money)', () => {
    expect(A2A_METHOD_TABLE.length).toBeGreaterThan(15);
    for (const m of A2A_METHOD_TABLE) {
      for (const p of m.requires) expect(PERMISSIONS, m.name).toContain(p);
      if (m.kind === 'read') expect(m.requires, m.name).toEqual(['read']);
      else expect(m.requires, m.name).toEqual([m.group === 'payments' || m.group === 'orders' || m.group === 'trading' ? 'trade' : 'social']);
      if (m.idempotent) expect(m.requires, m.name).toContain('trade');
      expect(isPrivileged(m.requires), m.name).toBe(false);
    }
  });
});
