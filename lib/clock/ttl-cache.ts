/**
 * One value per instance, recomputed at most every `ttlMs`: concurrent callers share one
 * computation, and a failed one is not kept (the next call tries again). No I/O of its own.
 */
export function createTtlCache<T>(ttlMs: number, compute: () => Promise<T>) {
  let cached: { at: number; value: Promise<T> } | undefined;
  return {
    get: (): Promise<T> => {
      const t = Date.now();
      if (!cached || t - cached.at >= ttlMs) {
        const value = compute();
        cached = { at: t, value };
        value.catch(() => {
          if (cached?.value === value) cached = undefined;
        });
      }
      return cached.value;
    },
    /** Forget the value: the next call computes again. */
    reset: () => {
      cached = undefined;
    },
  };
}
