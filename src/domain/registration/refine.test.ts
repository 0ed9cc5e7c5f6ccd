// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { paintSyntheticFundus } from '../fundus/synthetic-fundus';
import { refineByVessels } from './refine';
import { applySimilarity, composeSimilarity, type Similarity } from './similarity';
import { warpRaster } from './warp';

describe('refineByVessels', () => {
  it('brings a registration that is about 12 px and 1.5° off (as disc and fovea leave it) onto the vessels, to within a pixel', () => {
    const earlier = paintSyntheticFundus({ width: 800, height: 600, eye: 'OD', seed: 11 });
    const turn = (6 * Math.PI) / 180;
    const truth: Similarity = composeSimilarity({ a: 1, b: 0, tx: -400, ty: -300 }, { a: 1.05 * Math.cos(turn), b: 1.05 * Math.sin(turn), tx: 420, ty: 290 });
    const today = warpRaster(earlier.raster, truth);
    const off = (1.5 * Math.PI) / 180;
    const start = composeSimilarity(truth, composeSimilarity({ a: 1, b: 0, tx: -400, ty: -300 }, { a: Math.cos(off), b: Math.sin(off), tx: 410, ty: 292 }));
    const refined = refineByVessels(earlier.raster, today, start);
    expect(refined.score).toBeGreaterThan(refined.startScore);
    for (const spot of [earlier.truth.fovea, earlier.truth.opticDisc.center, { x: 200, y: 150 }]) {
      const want = applySimilarity(truth, spot);
      const got = applySimilarity(refined.transform, spot);
      const before = applySimilarity(start, spot);
      expect(Math.hypot(before.x - want.x, before.y - want.y)).toBeGreaterThan(10);
      expect(Math.hypot(got.x - want.x, got.y - want.y)).toBeLessThan(1);
    }
  });
});
