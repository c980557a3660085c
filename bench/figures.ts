/** One printed figure of `npm run bench`: the project's number beside its same-run reference. */
export type TFigure = {
  name: string;
  project: number;
  reference: number;
  unit: string;
  higherIsBetter: boolean;
  /** What the reference is, when it is not the same SQL issued directly (the default). */
  referenceIs?: string;
};

/** The p-th percentile of an ascending list of latencies (ms). */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Runs `work` from `connections` concurrent loops for `seconds`; its rate and latency percentiles (ms). */
export const driveLoops = async (work: (i: number) => Promise<unknown>, opts: { seconds: number; connections: number }) => {
  const latencies: number[] = [];
  const deadline = performance.now() + opts.seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: opts.connections }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await work(n++);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / opts.seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), trips: latencies.length };
};
