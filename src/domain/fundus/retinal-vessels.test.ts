// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { growRetinalVessels, type VesselSegment, type VesselTreeLayout } from './retinal-vessels';
import { createSeededRandom } from './seeded-random';

// A right eye at 1600 × 1200: the disc to the right of the fovea, slightly higher.
const LAYOUT: VesselTreeLayout = {
  fieldCenter: { x: 800, y: 600 },
  fieldRadiusPx: 570,
  discCenter: { x: 1180, y: 570 },
  discRadiusPx: 72,
  vesselOrigin: { x: 1176, y: 571 },
  fovea: { x: 740, y: 630 },
  umPerPixel: 4760 / Math.hypot(1180 - 740, 570 - 630),
  avascularRadiusPx: 30,
};

function distanceToSegment(point: { x: number; y: number }, s: VesselSegment): number {
  const dx = s.x1 - s.x0;
  const dy = s.y1 - s.y0;
  const t = Math.max(0, Math.min(1, ((point.x - s.x0) * dx + (point.y - s.y0) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(point.x - (s.x0 + t * dx), point.y - (s.y0 + t * dy));
}

const SEEDS = [1, 2, 3, 4, 5];
const trees = SEEDS.map((seed) => growRetinalVessels(LAYOUT, createSeededRandom(seed)));

describe('growRetinalVessels', () => {
  it('is reproducible from the seed', () => {
    expect(growRetinalVessels(LAYOUT, createSeededRandom(1))).toEqual(trees[0]);
    expect(trees[1]).not.toEqual(trees[0]);
  });

  it('grows a tree of thousands of segments, veins wider than arteries', () => {
    for (const tree of trees) {
      expect(tree.length).toBeGreaterThan(2000);
      const widest = (kind: 'vein' | 'artery') =>
        Math.max(...tree.filter((s) => s.kind === kind).map((s) => s.radius0Px * LAYOUT.umPerPixel));
      expect(widest('vein')).toBeGreaterThan(widest('artery'));
      // Trunk calibres at the disc: veins ≈ 125–160 µm, arteries ≈ 95–125 µm across.
      expect(widest('vein')).toBeGreaterThan(60);
      expect(widest('vein')).toBeLessThan(82);
    }
  });

  it('never enters the foveal avascular zone', () => {
    for (const tree of trees) {
      const closest = Math.min(...tree.map((s) => distanceToSegment(LAYOUT.fovea, s)));
      expect(closest).toBeGreaterThanOrEqual(LAYOUT.avascularRadiusPx);
    }
  });

  it('starts its trunks in the disc and tapers every segment', () => {
    for (const tree of trees) {
      const fromDisc = tree.filter(
        (s) => Math.hypot(s.x0 - LAYOUT.vesselOrigin.x, s.y0 - LAYOUT.vesselOrigin.y) < 0.3 * LAYOUT.discRadiusPx,
      );
      // Eight trunks (superior/inferior × temporal/nasal × artery/vein) and the small disc vessels.
      expect(fromDisc.length).toBeGreaterThanOrEqual(8);
      expect(tree.filter((s) => s.radius1Px > s.radius0Px)).toEqual([]);
    }
  });

  it('stays within the field of view', () => {
    for (const tree of trees) {
      const farthest = Math.max(...tree.map((s) => Math.hypot(s.x0 - LAYOUT.fieldCenter.x, s.y0 - LAYOUT.fieldCenter.y)));
      expect(farthest).toBeLessThanOrEqual(LAYOUT.fieldRadiusPx);
      // …and reaches its rim: the trunks run out of the picture.
      expect(farthest).toBeGreaterThan(0.97 * LAYOUT.fieldRadiusPx);
    }
  });

  it('arches a large vessel above and below the macula (the temporal arcades)', () => {
    const discFovea = Math.hypot(LAYOUT.discCenter.x - LAYOUT.fovea.x, LAYOUT.discCenter.y - LAYOUT.fovea.y);
    for (const tree of trees) {
      // Large vessels straight above or below the fovea, between 0.4 and 1.2 disc–fovea distances away.
      const arcade = (below: boolean) =>
        tree.some((s) => {
          const dy = s.y0 - LAYOUT.fovea.y;
          return (
            s.radius0Px * LAYOUT.umPerPixel > 35 &&
            Math.abs(s.x0 - LAYOUT.fovea.x) < 0.15 * discFovea &&
            (below ? dy > 0 : dy < 0) &&
            Math.abs(dy) > 0.4 * discFovea &&
            Math.abs(dy) < 1.2 * discFovea
          );
        });
      expect(arcade(false)).toBe(true);
      expect(arcade(true)).toBe(true);
    }
  });

  it('mirrors its anatomy for a left eye', () => {
    const width = 1600;
    const mirror = (p: { x: number; y: number }) => ({ x: width - p.x, y: p.y });
    const left: VesselTreeLayout = {
      ...LAYOUT,
      fieldCenter: mirror(LAYOUT.fieldCenter),
      discCenter: mirror(LAYOUT.discCenter),
      vesselOrigin: mirror(LAYOUT.vesselOrigin),
      fovea: mirror(LAYOUT.fovea),
    };
    const tree = growRetinalVessels(left, createSeededRandom(1));
    // The arcades now run to the right of the disc, towards the fovea; nothing enters the avascular zone.
    const temporal = tree.filter((s) => s.radius0Px * LAYOUT.umPerPixel > 35 && s.x0 > left.fovea.x);
    expect(temporal.length).toBeGreaterThan(50);
    expect(Math.min(...tree.map((s) => distanceToSegment(left.fovea, s)))).toBeGreaterThanOrEqual(30);
  });
});
