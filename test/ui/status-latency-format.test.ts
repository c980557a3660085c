import { describe, expect, it } from 'vitest';
import { barPercent, formatMs, targetText, verdictOf } from '@/components/status/latency-format';

describe('the status page figures', () => {
  it('formats milliseconds and seconds, and nothing measured as a dash', () => {
    expect([formatMs(null), formatMs(0.5), formatMs(12.34), formatMs(250), formatMs(1500), formatMs(25_000)]).toEqual(['—', '0.5 ms', '12.3 ms', '250 ms', '1.5 s', '25 s']);
  });

  it('draws bars on a log scale, never past the end', () => {
    expect(barPercent(null, 1000)).toBe(0);
    expect(barPercent(1000, 1000)).toBe(100);
    expect(barPercent(10, 1000)).toBeCloseTo(33.3, 0);
    expect(barPercent(5000, 1000)).toBe(100);
  });

  it('names the verdict and the targets', () => {
    expect(verdictOf({ met: true, target: { p50Ms: 50, p99Ms: 250 }, count: 3 })).toEqual({ tone: 'up', label: 'Meets target' });
    expect(verdictOf({ met: false, target: { p50Ms: 50, p99Ms: 250 }, count: 3 }).tone).toBe('down');
    expect(verdictOf({ met: null, target: { p50Ms: 50, p99Ms: 250 }, count: 0 }).label).toBe('No data');
    expect(verdictOf({ met: null, target: null, count: 9 }).label).toBe('No target');
    expect(targetText({ p50Ms: 50, p99Ms: 250 })).toBe('p50 < 50 ms, p99 < 250 ms');
    expect(targetText({ p50Ms: null, p99Ms: 1000 })).toBe('p99 < 1 s');
  });
});
