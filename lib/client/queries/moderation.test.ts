import { describe, expect, it } from 'vitest';
import { buildReportBody, offsetAfterRemoval, pageInfo, REPORT_CATEGORIES, reportDraftProblems, withoutUserPosts } from './moderation';

const post = (id: string, authorId: string, repostBy?: string) => ({
  id,
  authorId,
  author: { id: authorId },
  repost: repostBy ? { user: { id: repostBy } } : null,
});

describe('withoutUserPosts', () => {
  it("takes a person's posts and reposts out of every page of a feed, and nothing else", () => {
    const feed = {
      pages: [
        { posts: [post('1', 'a'), post('2', 'b'), post('3', 'c', 'a')], nextCursor: 'x' },
        { posts: [post('4', 'a'), post('5', 'c')], nextCursor: null },
      ],
      pageParams: [undefined, 'x'],
    };
    const out = withoutUserPosts(feed, 'a') as typeof feed;
    expect(out.pages.map((p) => p.posts.map((q) => q.id))).toEqual([['2'], ['5']]);
    expect(out.pages[0]!.nextCursor).toBe('x');
    expect(out.pageParams).toEqual([undefined, 'x']);
  });

  it('leaves a single post, and a page without that person, as they are', () => {
    const single = post('1', 'a');
    expect(withoutUserPosts(single, 'a')).toBe(single);
    const page = { posts: [post('2', 'b')] };
    expect(withoutUserPosts(page, 'a')).toBe(page);
    expect(withoutUserPosts(undefined, 'a')).toBeUndefined();
  });
});

describe('reportDraftProblems', () => {
  it('needs a category, 10 to 2000 characters of reason, and an http(s) evidence link when one is given', () => {
    expect(reportDraftProblems({ category: null, reason: 'short', evidence: 'ftp://x' })).toEqual({
      category: 'Pick the category that fits best.',
      reason: 'Tell us what happened in at least 10 characters.',
      evidence: 'Enter a link that starts with http:// or https://.',
    });
    expect(reportDraftProblems({ category: 'spam', reason: '   123456789   ', evidence: '' }).reason).toBeDefined();
    expect(reportDraftProblems({ category: 'spam', reason: 'x'.repeat(2001), evidence: '' }).reason).toBe('Keep the reason under 2000 characters.');
    expect(reportDraftProblems({ category: 'spam', reason: 'Same link posted forty times', evidence: 'https://example.test/shot.png' })).toEqual({});
  });

  it('counts characters as a reader sees them, as the server does (an emoji is one)', () => {
    expect(reportDraftProblems({ category: 'other', reason: '👍🏽'.repeat(10), evidence: '' }).reason).toBeUndefined();
    expect(reportDraftProblems({ category: 'other', reason: '👍🏽'.repeat(9), evidence: '' }).reason).toBeDefined();
  });
});

describe('buildReportBody', () => {
  it('trims the reason and leaves an empty evidence out', () => {
    expect(buildReportBody({ reportType: 'post', reportedPostId: 'p1' }, { category: 'spam', reason: '  Posted forty times  ', evidence: ' ' })).toEqual({
      reportType: 'post',
      reportedPostId: 'p1',
      category: 'spam',
      reason: 'Posted forty times',
    });
    expect(buildReportBody({ reportType: 'user', reportedUserId: 'u1' }, { category: 'other', reason: 'Impersonating me here', evidence: 'https://x.test' })).toMatchObject({
      evidence: 'https://x.test',
    });
  });
});

describe('REPORT_CATEGORIES', () => {
  it('explains each of the nine categories of the specification', () => {
    expect(REPORT_CATEGORIES.map((c) => c.value)).toEqual(['spam', 'harassment', 'hate_speech', 'violence', 'misinformation', 'inappropriate', 'impersonation', 'self_harm', 'other']);
    for (const c of REPORT_CATEGORIES) expect(c.description.length).toBeGreaterThan(10);
  });
});

describe('pages', () => {
  it('numbers offset pages and says what is shown', () => {
    expect(pageInfo({ limit: 20, offset: 20, total: 45 }, 20)).toEqual({ page: 2, pages: 3, from: 21, to: 40, total: 45, hasPrevious: true, hasNext: true });
    expect(pageInfo({ limit: 20, offset: 40, total: 45 }, 5)).toMatchObject({ page: 3, hasNext: false });
    expect(pageInfo({ limit: 20, offset: 0, total: 0 }, 0)).toMatchObject({ page: 1, pages: 1, from: 0, to: 0, hasPrevious: false, hasNext: false });
  });

  it('steps back a page when the last row of a page is undone', () => {
    expect(offsetAfterRemoval(40, 0, 20)).toBe(20);
    expect(offsetAfterRemoval(40, 3, 20)).toBe(40);
    expect(offsetAfterRemoval(0, 0, 20)).toBe(0);
  });
});
