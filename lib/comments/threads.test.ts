import { describe, expect, it } from 'vitest';
import { keepVisibleThreads } from './threads';

const row = (id: string, parent: string | null = null) => ({ id, parent_comment_id: parent });

describe('keepVisibleThreads', () => {
  it('keeps every comment when nothing is hidden, in order', () => {
    const rows = [row('a'), row('b', 'a'), row('c', 'b'), row('d')];
    expect(keepVisibleThreads(rows)).toEqual(rows);
  });

  it('drops the whole subtree under a hidden comment, whoever wrote the replies', () => {
    // 'b' (a reply to 'a') was hidden: 'c' answers 'b', 'e' answers 'c'; 'd' answers 'a' and stays.
    const rows = [row('a'), row('c', 'b'), row('d', 'a'), row('e', 'c'), row('f')];
    expect(keepVisibleThreads(rows).map((r) => r.id)).toEqual(['a', 'd', 'f']);
  });

  it('does not depend on the order of the rows (a reply may come before its parent on equal timestamps)', () => {
    const rows = [row('c', 'b'), row('b', 'a'), row('a'), row('x', 'hidden')];
    expect(keepVisibleThreads(rows).map((r) => r.id)).toEqual(['c', 'b', 'a']);
  });

  it('keeps nothing of a malformed cycle and terminates', () => {
    expect(keepVisibleThreads([row('a', 'b'), row('b', 'a'), row('t')]).map((r) => r.id)).toEqual(['t']);
  });
});
