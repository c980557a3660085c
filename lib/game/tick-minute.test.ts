import { describe, expect, it } from 'vitest';
import { alreadyTickedThisMinute } from './tick';

describe('alreadyTickedThisMinute (one tick per game minute, however many instances call)', () => {
  const last = new Date('2030-01-01T10:15:20Z');
  it('skips a second tick in the same minute, before or after the first within it', () => {
    expect(alreadyTickedThisMinute(last, 3, new Date('2030-01-01T10:15:59.999Z'))).toBe(true);
    expect(alreadyTickedThisMinute(last, 3, new Date('2030-01-01T10:15:00Z'))).toBe(true);
  });
  it('runs in the next minute, and always when nothing has ticked yet', () => {
    expect(alreadyTickedThisMinute(last, 3, new Date('2030-01-01T10:16:00Z'))).toBe(false);
    expect(alreadyTickedThisMinute(last, 0, last)).toBe(false);
    expect(alreadyTickedThisMinute(undefined, 0, last)).toBe(false);
  });
});
