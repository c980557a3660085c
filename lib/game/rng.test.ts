import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from './rng';

describe('createRng', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = createRng('seed-1');
    const b = createRng('seed-1');
    const c = createRng('seed-2');
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(xs);
  });

  it('forks are independent of draws on the parent', () => {
    const a = createRng('s');
    const b = createRng('s');
    a.next();
    expect(a.fork('npc').next()).toBe(b.fork('npc').next());
  });

  it('property: int stays within its bounds and next within [0, 1)', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 1000 }), (seed, min, span) => {
        const r = createRng(seed);
        for (let i = 0; i < 20; i++) {
          const v = r.int(min, min + span);
          expect(v).toBeGreaterThanOrEqual(min);
          expect(v).toBeLessThanOrEqual(min + span);
          const f = r.next();
          expect(f >= 0 && f < 1).toBe(true);
        }
      }),
    );
  });
});
