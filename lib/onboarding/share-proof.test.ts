import { describe, expect, it } from 'vitest';
import { checkShareUrl, isSameHandle, utcDayOf } from './share-proof';

describe('share proofs', () => {
  it('a post URL must name the linked handle and the post id as path segments', () => {
    const ok = (url: string, postId = '123', handle = 'alice') => checkShareUrl({ url, postId, handle });
    expect(ok('https://social-a.example/alice/status/123')).toEqual({ ok: true });
    expect(ok('https://social-a.example/@Alice/123?s=20')).toEqual({ ok: true });
    expect(ok('https://social-a.example/profile/ALICE/post/123', '123', '@alice')).toEqual({ ok: true });
    expect(ok('https://social-a.example/bob/status/123')).toEqual({ ok: false, problem: 'not_by_handle' });
    expect(ok('https://social-a.example/bob/status/123?author=alice')).toEqual({ ok: false, problem: 'not_by_handle' });
    expect(ok('https://social-a.example/alicex/status/123')).toEqual({ ok: false, problem: 'not_by_handle' });
    expect(ok('https://social-a.example/alice/status/124')).toEqual({ ok: false, problem: 'post_id_missing' });
    expect(ok('https://social-a.example/alice/status/1234')).toEqual({ ok: false, problem: 'post_id_missing' });
    expect(ok('not a url')).toEqual({ ok: false, problem: 'post_id_missing' });
    expect(ok('https://social-a.example/alice/status/123', '123', '')).toEqual({ ok: false, problem: 'not_by_handle' });
  });

  it('handles compare without case or a leading @', () => {
    expect(isSameHandle('@Alice', 'alice')).toBe(true);
    expect(isSameHandle('alice', 'alice2')).toBe(false);
  });

  it('the UTC day of a time', () => {
    expect(utcDayOf(new Date('2030-05-06T23:59:59.999Z'))).toEqual({ start: new Date('2030-05-06T00:00:00Z'), end: new Date('2030-05-07T00:00:00Z') });
    expect(utcDayOf(new Date('2030-05-07T00:00:00Z')).start).toEqual(new Date('2030-05-07T00:00:00Z'));
  });
});
