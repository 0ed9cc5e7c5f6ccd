// Today's image of an eye drawn from another by a similarity transform: for benchmarks and tests of the
// registration (pairs of one synthetic eye under known shifts, rotations and scales). Bilinear, black outside.
import { createRaster, type Raster } from '../fundus/raster';
import { applySimilarity, invertSimilarity, type Similarity } from './similarity';

/** The raster `source` moved by `t` (source pixels → output pixels), `width` × `height`. */
export function warpRaster(source: Raster, t: Similarity, width = source.width, height = source.height): Raster {
  const back = invertSimilarity(t);
  const out = createRaster(width, height);
  const { data, width: sw, height: sh } = source;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      // Pixel centres (continuous coordinates: pixel i covers [i, i + 1)).
      const p = applySimilarity(back, { x: x + 0.5, y: y + 0.5 });
      const fx = p.x - 0.5;
      const fy = p.y - 0.5;
      const x0 = Math.floor(fx);
      const y0 = Math.floor(fy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= sw || y0 + 1 >= sh) continue;
      const wx = fx - x0;
      const wy = fy - y0;
      const i00 = (y0 * sw + x0) * 3;
      const i10 = i00 + 3;
      const i01 = i00 + sw * 3;
      const i11 = i01 + 3;
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c += 1) {
        const top = data[i00 + c] * (1 - wx) + data[i10 + c] * wx;
        const bottom = data[i01 + c] * (1 - wx) + data[i11 + c] * wx;
        out.data[o + c] = top * (1 - wy) + bottom * wy;
      }
    }
  }
  return out;
}
