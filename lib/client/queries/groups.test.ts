import { describe, expect, it } from 'vitest';
import { joinStateOf } from './groups';

const group = (over: Partial<Parameters<typeof joinStateOf>[0]> = {}) => ({
  isMember: false,
  visibility: 'open' as 'open' | 'invite',
  hasPendingInvite: false,
  owner: { id: 'owner', username: 'owner', displayName: 'Owner', profileImageUrl: null, isActor: true },
  ...over,
});

describe('joinStateOf', () => {
  it('offers Join for an open group and nothing for an invite-only one without an invite', () => {
    expect(joinStateOf(group(), 'me')).toBe('join');
    expect(joinStateOf(group({ visibility: 'invite' }), 'me')).toBe('invite-only');
  });
  it('offers to accept a pending invite, whatever the visibility', () => {
    expect(joinStateOf(group({ visibility: 'invite', hasPendingInvite: true }), 'me')).toBe('accept');
    expect(joinStateOf(group({ hasPendingInvite: true }), 'me')).toBe('accept');
  });
  it('tells a member from the owner (who cannot leave)', () => {
    expect(joinStateOf(group({ isMember: true }), 'me')).toBe('member');
    expect(joinStateOf(group({ isMember: true }), 'owner')).toBe('owner');
  });
});
