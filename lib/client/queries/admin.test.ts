import { describe, expect, it } from 'vitest';
import { availableReportActions, consoleRoleOf, DEFAULT_REPORT_FILTERS, reportQueueFromParams, reportQueueToParams, toDaySeries } from './admin';

describe('consoleRoleOf', () => {
  it('lets administrators and moderators in, and no one else', () => {
    expect(consoleRoleOf({ isAdmin: true, isModerator: true })).toBe('admin');
    expect(consoleRoleOf({ isAdmin: false, isModerator: true })).toBe('moderator');
    expect(consoleRoleOf({ isAdmin: false, isModerator: false })).toBeNull();
    expect(consoleRoleOf(undefined)).toBeNull();
  });
});

describe('availableReportActions', () => {
  const user = { id: 'u', username: 'u', displayName: 'U', isBanned: false };
  it('follows the report states: review while pending, resolve and dismiss while open, escalate unless critical', () => {
    expect(availableReportActions({ status: 'pending', priority: 'low', reportedUser: user }, 'admin')).toEqual(['review', 'resolve', 'dismiss', 'escalate', 'ban_user']);
    expect(availableReportActions({ status: 'reviewing', priority: 'critical', reportedUser: user }, 'admin')).toEqual(['resolve', 'dismiss', 'ban_user']);
    expect(availableReportActions({ status: 'resolved', priority: 'high', reportedUser: { ...user, isBanned: true } }, 'admin')).toEqual(['escalate']);
  });

  it('keeps banning for administrators', () => {
    expect(availableReportActions({ status: 'pending', priority: 'low', reportedUser: user }, 'moderator')).not.toContain('ban_user');
  });
});

describe('the queue in the page address', () => {
  it('round-trips filters, sort and offset, leaving defaults out', () => {
    const filters = { status: undefined, category: 'spam' as const, priority: 'high' as const, reportType: 'post' as const, source: 'system' as const, sortBy: 'created' as const, sortOrder: 'asc' as const };
    const params = reportQueueToParams(filters, 50);
    expect(params.toString()).toBe('status=all&category=spam&priority=high&type=post&source=system&sort=created&order=asc&offset=50');
    expect(reportQueueFromParams(params)).toEqual({ filters, offset: 50 });
    expect(reportQueueToParams(DEFAULT_REPORT_FILTERS, 0).toString()).toBe('');
  });

  it('falls back to the defaults on unknown values', () => {
    expect(reportQueueFromParams(new URLSearchParams('status=nope&category=x&sort=y&offset=-3'))).toEqual({ filters: DEFAULT_REPORT_FILTERS, offset: 0 });
  });
});

describe('toDaySeries', () => {
  it('puts each day at its UTC midnight, oldest first', () => {
    const day = (date: string, trades: number) => ({ date, signups: 0, activeUsers: 0, trades, volume: trades * 10, posts: 0, reports: 0 });
    expect(toDaySeries([day('2026-01-02', 5), day('2026-01-01', 3)], 'volume')).toEqual([
      { time: Date.UTC(2026, 0, 1) / 1000, value: 30 },
      { time: Date.UTC(2026, 0, 2) / 1000, value: 50 },
    ]);
  });
});
