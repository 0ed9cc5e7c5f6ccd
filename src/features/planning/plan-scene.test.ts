import { describe, expect, it } from 'vitest';
import { factorHistogram, poweredSpots, spotAt, spotTowards, totalEnergyMj } from './plan-scene';

const model = { medianBrightness: 0.4, minFactor: 0.8, maxFactor: 1.2, gamma: 0.5 };
const spot = (id: number, x: number, y: number, brightness = 0.4) => ({ id, x, y, xUm: x * 10, yUm: -y * 10, enabled: true, brightness });

describe('plan scene', () => {
  it('gives factors and powers as the server does, and follows changed bounds', () => {
    const spots = [spot(1, 0, 0, 0.1), spot(2, 5, 0, 0.4), spot(3, 10, 0, 1)];
    const powered = poweredSpots(spots, model, 10);
    expect(powered.map((s) => s.powerFactor)).toEqual([0.8, 1, 1.2]);
    expect(powered.map((s) => s.powerMw)).toEqual([8, 10, 12]);
    const wider = poweredSpots(spots, { ...model, minFactor: 0.5, maxFactor: 1.5 }, 10);
    expect(wider[0].powerFactor).toBeCloseTo(0.5);
    expect(wider[2].powerFactor).toBe(1.5); // √2.5 clamped
    expect(poweredSpots(spots, null, null)[0]).toMatchObject({ colour: -1, powerFactor: null, powerMw: null });
  });

  it('counts only treated spots in the histogram and the energy', () => {
    const spots = poweredSpots([spot(1, 0, 0, 0.1), spot(2, 5, 0, 0.4), spot(3, 10, 0, 1)], model, 10, new Set([3]));
    expect(factorHistogram(spots, model).reduce((a, b) => a + b, 0)).toBe(2);
    // (8 + 10) mW × 20 ms = 360 µJ
    expect(totalEnergyMj(spots, 20)).toBeCloseTo(0.36);
    expect(totalEnergyMj(spots, null)).toBeNull();
  });

  it('finds the spot under the pointer and the next one in a direction', () => {
    const spots = [spot(1, 0, 0), spot(2, 10, 0), spot(3, 5, 9), spot(4, -10, 0)];
    expect(spotAt(spots, 1, 1, 3)).toBe(1);
    expect(spotAt(spots, 5, 4, 3)).toBeNull();
    expect(spotTowards(spots, 1, 1, 0)).toBe(2);
    expect(spotTowards(spots, 1, -1, 0)).toBe(4);
    expect(spotTowards(spots, 1, 0, 1)).toBe(3);
    expect(spotTowards(spots, 1, 0, -1)).toBeNull();
  });
});
