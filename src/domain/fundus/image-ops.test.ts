// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boxBlur,
  closing,
  createMaskedBlur,
  createPlane,
  downsampleRaster,
  gaussianBlur,
  rankFilter,
  type Plane,
} from './image-ops';
import { createRaster } from './raster';

function planeFrom(width: number, height: number, values: number[]): Plane {
  return { width, height, data: Float32Array.from(values) };
}

const smallPlane = fc
  .record({ width: fc.integer({ min: 1, max: 12 }), height: fc.integer({ min: 1, max: 12 }) })
  .chain(({ width, height }) =>
    fc
      .array(fc.integer({ min: 0, max: 255 }), { minLength: width * height, maxLength: width * height })
      .map((values) => planeFrom(width, height, values)),
  );

/** The window statistic computed the slow, obvious way. */
function naiveWindow(plane: Plane, r: number, reduce: (values: number[]) => number): Float32Array {
  const out = new Float32Array(plane.width * plane.height);
  for (let y = 0; y < plane.height; y++) {
    for (let x = 0; x < plane.width; x++) {
      const values: number[] = [];
      for (let yy = Math.max(0, y - r); yy <= Math.min(plane.height - 1, y + r); yy++) {
        for (let xx = Math.max(0, x - r); xx <= Math.min(plane.width - 1, x + r); xx++) {
          values.push(plane.data[yy * plane.width + xx]);
        }
      }
      out[y * plane.width + x] = reduce(values);
    }
  }
  return out;
}

describe('boxBlur', () => {
  it('is the mean over the window, counting only pixels inside the image', () => {
    fc.assert(
      fc.property(smallPlane, fc.integer({ min: 0, max: 5 }), (plane, r) => {
        const expected = naiveWindow(plane, r, (v) => v.reduce((a, b) => a + b, 0) / v.length);
        const actual = boxBlur(plane, r).data;
        for (let i = 0; i < expected.length; i++) expect(actual[i]).toBeCloseTo(expected[i], 3);
      }),
      { numRuns: 60 },
    );
  });
});

describe('rankFilter', () => {
  it('is the minimum or maximum over the square window', () => {
    fc.assert(
      fc.property(
        smallPlane,
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom('min' as const, 'max' as const),
        (plane, r, kind) => {
          const expected = naiveWindow(plane, r, (v) => (kind === 'min' ? Math.min(...v) : Math.max(...v)));
          expect(Array.from(rankFilter(plane, r, kind).data)).toEqual(Array.from(expected));
        },
      ),
      { numRuns: 80 },
    );
  });
});

describe('closing', () => {
  it('fills a dark line narrower than the window and keeps a wide dark patch', () => {
    const plane = createPlane(40, 40, 200);
    for (let y = 0; y < 40; y++) plane.data[y * 40 + 10] = 50; // a vessel, 1 px wide
    for (let y = 15; y < 35; y++) for (let x = 20; x < 38; x++) plane.data[y * 40 + x] = 60; // a fovea-sized patch
    const closed = closing(plane, 2);
    expect(closed.data[20 * 40 + 10]).toBe(200);
    expect(closed.data[25 * 40 + 28]).toBe(60);
  });
});

describe('gaussianBlur', () => {
  it('keeps a constant plane constant and spreads an impulse with about the requested sigma', () => {
    const constant = gaussianBlur(createPlane(30, 20, 7), 4);
    for (const v of constant.data) expect(v).toBeCloseTo(7, 4);

    const size = 101;
    const impulse = createPlane(size, size);
    impulse.data[50 * size + 50] = 1;
    const blurred = gaussianBlur(impulse, 6).data;
    let mass = 0;
    let variance = 0;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        mass += blurred[y * size + x];
        variance += blurred[y * size + x] * (x - 50) ** 2;
      }
    }
    expect(mass).toBeCloseTo(1, 3);
    expect(Math.sqrt(variance / mass)).toBeGreaterThan(5.5);
    expect(Math.sqrt(variance / mass)).toBeLessThan(6.5);
  });
});

describe('downsampleRaster', () => {
  it('averages each block of pixels into one working pixel per channel', () => {
    const raster = createRaster(8, 4);
    for (let y = 0; y < 4; y++) {
      for (let x = 0; x < 8; x++) raster.data.set([x < 4 ? 10 : 30, 100, y < 2 ? 0 : 200], (y * 8 + x) * 3);
    }
    const work = downsampleRaster(raster, 4);
    expect(work.scale).toBe(2);
    expect([work.red.width, work.red.height]).toEqual([4, 2]);
    expect(Array.from(work.red.data)).toEqual([10, 10, 30, 30, 10, 10, 30, 30]);
    expect(Array.from(work.green.data)).toEqual(new Array(8).fill(100));
    expect(Array.from(work.blue.data)).toEqual([0, 0, 0, 0, 200, 200, 200, 200]);
  });

  it('never enlarges, and keeps a constant raster constant at any scale', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 160 }),
        fc.integer({ min: 1, max: 160 }),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 0, max: 255 }),
        (width, height, maxSide, value) => {
          const raster = createRaster(width, height);
          raster.data.fill(value);
          const work = downsampleRaster(raster, maxSide);
          expect(work.scale).toBeGreaterThanOrEqual(1);
          expect(Math.max(work.red.width, work.red.height)).toBeLessThanOrEqual(Math.max(maxSide, 1) + 1);
          expect(work.red.width).toBeLessThanOrEqual(width);
          const worst = work.green.data.reduce((m, v) => Math.max(m, Math.abs(v - value)), 0);
          expect(worst).toBeLessThan(1e-4);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('createMaskedBlur', () => {
  it('averages only masked pixels, so a dark surround does not darken the edge of the field', () => {
    const width = 40;
    const height = 30;
    const mask = new Uint8Array(width * height);
    const plane = createPlane(width, height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (x < 25) {
          mask[y * width + x] = 1;
          plane.data[y * width + x] = 120;
        }
      }
    }
    const blur = createMaskedBlur(mask, width, height);
    const masked = blur(plane, 5);
    const plain = gaussianBlur(plane, 5);
    expect(masked.data[15 * width + 24]).toBeCloseTo(120, 3);
    expect(plain.data[15 * width + 24]).toBeLessThan(100);
    expect(masked.data[15 * width + 39]).toBe(0);
    // The cached weights of a sigma serve a second plane as well.
    const doubled = blur({ width, height, data: plane.data.map((v) => 2 * v) }, 5);
    expect(doubled.data[15 * width + 24]).toBeCloseTo(240, 3);
  });
});
