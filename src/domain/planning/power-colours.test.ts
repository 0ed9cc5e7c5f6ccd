import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { powerColour, powerLegend, POWER_COLOURS } from './power-colours';

const model = { minFactor: 0.8, maxFactor: 1.2 };

describe('power colours', () => {
  it('colours factors from the lowest to the highest class within the bounds', () => {
    expect(powerColour(0.8, model)).toBe(0);
    expect(powerColour(1.2, model)).toBe(POWER_COLOURS.length - 1);
    expect(powerColour(1.0, model)).toBe(POWER_COLOURS.length / 2);
    fc.assert(fc.property(fc.double({ min: -10, max: 10, noNaN: true }), (factor) => {
      const colour = powerColour(factor, model);
      expect(colour).toBeGreaterThanOrEqual(0);
      expect(colour).toBeLessThan(POWER_COLOURS.length);
    }));
  });

  it('gives the middle class when the bounds leave no span', () => {
    expect(powerColour(1, { minFactor: 1, maxFactor: 1 })).toBe(POWER_COLOURS.length / 2);
  });

  it('splits the bounds into one band per colour, end to end', () => {
    const legend = powerLegend(model);
    expect(legend).toHaveLength(POWER_COLOURS.length);
    expect(legend[0].from).toBe(0.8);
    expect(legend.at(-1)!.to).toBeCloseTo(1.2);
    for (let k = 1; k < legend.length; k++) expect(legend[k].from).toBeCloseTo(legend[k - 1].to);
  });
});
