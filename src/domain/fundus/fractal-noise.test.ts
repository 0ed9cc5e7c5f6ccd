// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createFractalNoise, type FractalNoiseOptions } from './fractal-noise';
import { createSeededRandom } from './seeded-random';

const WIDTH = 300;
const HEIGHT = 200;

function field(options: FractalNoiseOptions, seed = 1): Float32Array[] {
  const noise = createFractalNoise(WIDTH, HEIGHT, options, createSeededRandom(seed));
  return Array.from({ length: HEIGHT }, (_, y) => {
    const row = new Float32Array(WIDTH);
    noise.fillRow(y, row);
    return row;
  });
}

const KINDS = ['value', 'gradient'] as const;

describe.each(KINDS)('createFractalNoise (%s)', (kind) => {
  const options: FractalNoiseOptions = { kind, cellSize: 40, octaves: 4 };

  it('is reproducible from the random source and differs between sources', () => {
    expect(field(options, 1)).toEqual(field(options, 1));
    expect(field(options, 1)).not.toEqual(field(options, 2));
  });

  it('stays within [-1, 1] and actually varies', () => {
    const values = field(options, 3).flatMap((row) => [...row]);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(-1);
    expect(Math.max(...values)).toBeLessThanOrEqual(1);
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
    const sd = Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length);
    expect(sd).toBeGreaterThan(0.1);
  });

  it('is smooth from pixel to pixel at a coarse scale', () => {
    // One octave at 40 px: neighbouring pixels differ by at most a small fraction of the range.
    const rows = field({ kind, cellSize: 40, octaves: 1 }, 4);
    let largest = 0;
    for (let y = 1; y < HEIGHT; y++) {
      for (let x = 1; x < WIDTH; x++) {
        largest = Math.max(largest, Math.abs(rows[y][x] - rows[y][x - 1]), Math.abs(rows[y][x] - rows[y - 1][x]));
      }
    }
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThan(0.12);
  });

  it('fills only the requested columns, with the same values as a full row', () => {
    const noise = createFractalNoise(WIDTH, HEIGHT, options, createSeededRandom(5));
    const full = new Float32Array(WIDTH);
    noise.fillRow(17, full);
    const part = new Float32Array(WIDTH).fill(99);
    noise.fillRow(17, part, 50, 120);
    expect(part.subarray(50, 120)).toEqual(full.subarray(50, 120));
    expect(part[49]).toBe(99);
    expect(part[120]).toBe(99);
  });
});

describe('createFractalNoise options', () => {
  it('refuses a non-positive cell size, no octaves or a lacunarity of 1 or less', () => {
    const random = createSeededRandom(1);
    expect(() => createFractalNoise(10, 10, { kind: 'value', cellSize: 0, octaves: 1 }, random)).toThrow(RangeError);
    expect(() => createFractalNoise(10, 10, { kind: 'value', cellSize: 5, octaves: 0 }, random)).toThrow(RangeError);
    expect(() =>
      createFractalNoise(10, 10, { kind: 'gradient', cellSize: 5, octaves: 2, lacunarity: 1 }, random),
    ).toThrow(RangeError);
  });

  it('drops octaves finer than the pixel grid instead of aliasing', () => {
    // With 4 px cells only two octaves (4 px, 2 px) are representable: asking for 8 gives the same field.
    const two = field({ kind: 'value', cellSize: 4, octaves: 2 }, 6);
    const eight = field({ kind: 'value', cellSize: 4, octaves: 8 }, 6);
    expect(eight).toEqual(two);
  });
});
