import { describe, expect, it } from 'vitest';
import { feedViewNeedsSignIn, feedViewSearch, parseFeedView } from './feed-filter';

const q = (s: string) => new URLSearchParams(s);

describe('the home feed view in the URL', () => {
  it('reads ?filter=, the older switches, and defaults to everyone', () => {
    expect(parseFeedView(q(''))).toBe('everyone');
    expect(parseFeedView(q('filter=players'))).toBe('players');
    expect(parseFeedView(q('filter=mine'))).toBe('mine');
    expect(parseFeedView(q('filter=following'))).toBe('following');
    expect(parseFeedView(q('filter=favorites'))).toBe('favorites');
    expect(parseFeedView(q('filter=nonsense'))).toBe('everyone');
    expect(parseFeedView(q('hideNpcs=1'))).toBe('players');
    expect(parseFeedView(q('held=1&hideNpcs=1'))).toBe('mine');
    expect(parseFeedView(q('filter=players&held=1'))).toBe('players');
  });

  it('writes ?filter= and keeps other parameters', () => {
    expect(feedViewSearch('', 'everyone')).toBe('');
    expect(feedViewSearch('', 'players')).toBe('?filter=players');
    expect(feedViewSearch('x=1&filter=mine', 'everyone')).toBe('?x=1');
    expect(feedViewSearch('hideNpcs=1&held=1&x=2', 'following')).toBe('?x=2&filter=following');
    for (const v of ['everyone', 'players', 'mine', 'following', 'favorites'] as const) expect(parseFeedView(q(feedViewSearch('', v).slice(1)))).toBe(v);
  });

  it('opens only everyone and players to guests', () => {
    expect(feedViewNeedsSignIn('everyone')).toBe(false);
    expect(feedViewNeedsSignIn('players')).toBe(false);
    expect(feedViewNeedsSignIn('mine')).toBe(true);
    expect(feedViewNeedsSignIn('following')).toBe(true);
    expect(feedViewNeedsSignIn('favorites')).toBe(true);
  });
});
