import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SLOW_BYTES_PER_SECOND, SLOW_WINDOW_MS, throughputMeter } from './throughput';

describe('the slow-connection meter', () => {
  it('says nothing before a whole window has passed', () => {
    const meter = throughputMeter();
    expect(meter.record({ at: 0, loaded: 0 })).toBe(false);
    expect(meter.record({ at: SLOW_WINDOW_MS - 1, loaded: 10 })).toBe(false);
    expect(meter.rate()).toBeUndefined();
  });

  it('finds a line that stays slow over the window', () => {
    const meter = throughputMeter();
    let slow = false;
    for (let t = 0; t <= 6000; t += 500) slow = meter.record({ at: t, loaded: t * 20 }); // 20 kB/s
    expect(slow).toBe(true);
    expect(meter.rate()).toBeCloseTo(20_000);
  });

  it('does not call a fast line slow, nor a short stall on it', () => {
    const meter = throughputMeter();
    let slow = false;
    for (let t = 0; t <= 10_000; t += 250) {
      const stalled = t > 4000 && t < 5000;
      slow ||= meter.record({ at: t, loaded: stalled ? 4000 * 1000 : t * 1000 }); // 1 MB/s with a 1 s stall
    }
    expect(slow).toBe(false);
  });

  it('judges by the bytes of the last window only', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_000, max: 2_000_000 }), (bytesPerSecond) => {
        const meter = throughputMeter();
        let slow = false;
        for (let t = 0; t <= 3 * SLOW_WINDOW_MS; t += 1000) slow = meter.record({ at: t, loaded: (t / 1000) * bytesPerSecond });
        expect(slow).toBe(bytesPerSecond < SLOW_BYTES_PER_SECOND);
      }),
    );
  });
});
