// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createRaster } from '../fundus/raster';
import { IDENTITY } from './similarity';
import { warpRaster } from './warp';

function gradient(width: number, height: number) {
  const raster = createRaster(width, height);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) raster.data.set([x * 10, y * 10, 100], (y * width + x) * 3);
  return raster;
}

describe('warpRaster', () => {
  it('keeps the picture under the identity, and moves it by a whole-pixel shift, black where nothing comes from', () => {
    const source = gradient(8, 6);
    const same = warpRaster(source, IDENTITY);
    // Interior pixels (the last row and column have no neighbour to interpolate with).
    expect(Array.from(same.data.slice((2 * 8 + 3) * 3, (2 * 8 + 3) * 3 + 3))).toEqual([30, 20, 100]);
    const moved = warpRaster(source, { a: 1, b: 0, tx: 2, ty: 1 });
    expect(Array.from(moved.data.slice((3 * 8 + 4) * 3, (3 * 8 + 4) * 3 + 3))).toEqual([20, 20, 100]);
    expect(Array.from(moved.data.slice(0, 3))).toEqual([0, 0, 0]);
  });

  it('interpolates between pixels for a half-pixel shift', () => {
    const moved = warpRaster(gradient(8, 6), { a: 1, b: 0, tx: 0.5, ty: 0 });
    expect(moved.data[(2 * 8 + 3) * 3]).toBe(25);
  });
});
