// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createSeededRandom } from './seeded-random';

const draw = (seed: number, count = 8) => {
  const random = createSeededRandom(seed);
  return Array.from({ length: count }, () => random.next());
};

describe('createSeededRandom', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('tells apart seeds that differ only above 2^32, in sign or in their fraction', () => {
    expect(draw(1)).not.toEqual(draw(2 ** 32 + 1));
    expect(draw(1)).not.toEqual(draw(-1));
    expect(draw(1)).not.toEqual(draw(1.5));
  });

  it('refuses a seed that is not a finite number', () => {
    expect(() => createSeededRandom(Number.NaN)).toThrow(RangeError);
    expect(() => createSeededRandom(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('draws uniformly from [0, 1)', () => {
    const random = createSeededRandom(7);
    const values = Array.from({ length: 20_000 }, () => random.next());
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
    expect(mean).toBeCloseTo(0.5, 1);
    // Each tenth of the interval gets about a tenth of the draws.
    const deciles = new Array<number>(10).fill(0);
    for (const v of values) deciles[Math.floor(v * 10)]++;
    for (const count of deciles) expect(count).toBeGreaterThan(1700);
  });

  it('draws normal values with the requested mean and spread', () => {
    const random = createSeededRandom(11);
    const values = Array.from({ length: 20_000 }, () => random.normal(5, 2));
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
    const sd = Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length);
    expect(mean).toBeCloseTo(5, 1);
    expect(sd).toBeGreaterThan(1.9);
    expect(sd).toBeLessThan(2.1);
  });

  it('draws integers from both ends of an inclusive range and refuses a reversed one', () => {
    const random = createSeededRandom(3);
    const seen = new Set(Array.from({ length: 500 }, () => random.integer(-2, 2)));
    expect([...seen].sort((x, y) => x - y)).toEqual([-2, -1, 0, 1, 2]);
    expect(() => random.integer(3, 2)).toThrow(RangeError);
    expect(() => random.integer(0.5, 2)).toThrow(RangeError);
  });

  it('picks from a list, chooses with a probability, and refuses an empty list', () => {
    const random = createSeededRandom(5);
    const picks = new Set(Array.from({ length: 200 }, () => random.pick(['a', 'b', 'c'])));
    expect(picks).toEqual(new Set(['a', 'b', 'c']));
    const hits = Array.from({ length: 10_000 }, () => random.chance(0.3)).filter(Boolean).length;
    expect(hits).toBeGreaterThan(2800);
    expect(hits).toBeLessThan(3200);
    expect(() => random.pick([])).toThrow(RangeError);
  });

  it('forks reproducible streams that do not depend on how much the fork draws', () => {
    const a = createSeededRandom(9);
    const forkA = a.fork();
    for (let i = 0; i < 100; i++) forkA.next();
    const b = createSeededRandom(9);
    const forkB = b.fork();
    forkB.next();
    expect(a.next()).toBe(b.next());
    expect(createSeededRandom(9).fork().next()).toBe(createSeededRandom(9).fork().next());
  });
});
