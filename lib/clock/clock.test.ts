import { afterEach, describe, expect, it, vi } from 'vitest';
import { advanceTo, now, resetClock } from './clock';

afterEach(() => {
  vi.useRealTimers();
  resetClock();
});

describe('advanceTo', () => {
  it('answers exactly the time it moved to, even when the wall clock ticks meanwhile', () => {
    vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00.000Z') });
    // Each reading of the wall clock is a millisecond later than the one before.
    const real = Date.now;
    let t = real();
    vi.spyOn(Date, 'now').mockImplementation(() => t++);
    const to = new Date('2026-01-01T01:00:00.000Z');
    expect(advanceTo(to).toISOString()).toBe(to.toISOString());
  });

  it('never goes back: a time in the past answers the current time', () => {
    vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00.000Z') });
    advanceTo(new Date('2026-01-01T02:00:00.000Z'));
    expect(advanceTo(new Date('2026-01-01T01:00:00.000Z')).toISOString()).toBe('2026-01-01T02:00:00.000Z');
    expect(now().toISOString()).toBe('2026-01-01T02:00:00.000Z');
  });
});
