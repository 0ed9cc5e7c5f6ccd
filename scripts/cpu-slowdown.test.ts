// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cpuSlowdownFor } from './cpu-slowdown.mjs';

describe("the mobile CPU slowdown for a host's benchmark index", () => {
  it("is Lighthouse's 4× on the high-end desktop its default is meant for, and the calculator's points between", () => {
    expect(cpuSlowdownFor(1533)).toBe(4);
    expect(cpuSlowdownFor(1300)).toBe(3);
    expect(cpuSlowdownFor(800)).toBe(2);
    expect(cpuSlowdownFor(2000)).toBeCloseTo(6, 1);
    expect(cpuSlowdownFor(475)).toBeCloseTo(1.5, 5);
  });

  it('slows no host below the target device, and never speeds one up', () => {
    expect(cpuSlowdownFor(150)).toBe(1);
    expect(cpuSlowdownFor(60)).toBe(1);
  });

  it('grows with the index', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 5000, noNaN: true }), fc.double({ min: 0, max: 5000, noNaN: true }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(cpuSlowdownFor(low)).toBeLessThanOrEqual(cpuSlowdownFor(high));
      }),
    );
  });
});
