/**
 * Seed-spec §8 "Slow Internet Connection Detected": the upload's throughput, measured over a sliding window,
 * stays below what an exam upload needs. Pure, so that it is tested with made-up clocks.
 */

/** Below this many bytes per second (≈ 0.8 Mbit/s) a 50 MB exam takes more than eight minutes. */
export const SLOW_BYTES_PER_SECOND = 100_000;
/** The throughput must stay low this long before the warning shows (a short stall is no slow line). */
export const SLOW_WINDOW_MS = 5_000;

export type Sample = { at: number; loaded: number };

export type ThroughputMeter = {
  /** Records the bytes sent so far at time `at` (ms); answers whether the line is slow now. */
  record: (sample: Sample) => boolean;
  /** Bytes per second over the window, once a window's worth of samples exists. */
  rate: () => number | undefined;
};

export function throughputMeter(windowMs = SLOW_WINDOW_MS, slowBelow = SLOW_BYTES_PER_SECOND): ThroughputMeter {
  const samples: Sample[] = [];
  const rate = (): number | undefined => {
    const last = samples.at(-1);
    // The oldest sample at least a window before the last one: the rate over (at least) a whole window.
    const start = last && samples.findLast((sample) => last.at - sample.at >= windowMs);
    if (!last || !start) return undefined;
    return ((last.loaded - start.loaded) * 1000) / (last.at - start.at);
  };
  return {
    record: (sample) => {
      samples.push(sample);
      // Keep what the next window needs: drop samples older than the newest one a window back.
      const keepFrom = samples.findLastIndex((s) => sample.at - s.at >= windowMs);
      if (keepFrom > 0) samples.splice(0, keepFrom);
      const current = rate();
      return current !== undefined && current < slowBelow;
    },
    rate,
  };
}
