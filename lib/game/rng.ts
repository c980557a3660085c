/**
 * Deterministic randomness for the game world. Every tick draws from a generator seeded by
 * GAME_SEED and the tick's game time, so the same seed and the same time make the same world
 * (tests assert what a tick creates). Pure: no I/O, no Math.random.
 */
export type TRng = {
  /** A float in [0, 1). */
  next: () => number;
  /** An integer in [min, max], both included. */
  int: (min: number, max: number) => number;
  /** A float in [min, max). */
  float: (min: number, max: number) => number;
  /** True with probability p. */
  chance: (p: number) => boolean;
  /** One element of a non-empty array. */
  pick: <T>(items: readonly T[]) => T;
  /** A standard normal draw (Box–Muller). */
  normal: () => number;
  /** An independent generator for a named purpose, so adding draws in one step never shifts another. */
  fork: (label: string) => TRng;
};

/** FNV-1a: a 32-bit hash of a string, to turn seeds and labels into generator state. */
const hash32 = (s: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

/** mulberry32: small, fast, and good enough for a game (not for secrets). */
const mulberry32 = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export function createRng(seed: string): TRng {
  const next = mulberry32(hash32(seed));
  const rng: TRng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    float: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    normal: () => {
      const u = Math.max(next(), Number.EPSILON);
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    },
    fork: (label) => createRng(`${seed}/${label}`),
  };
  return rng;
}
