import { describe, expect, it } from 'vitest';
import { clinicLimits } from './clinical-limits';
import { ellipseOutline, insideEllipse } from './ellipse';
import { DISC_FOVEA_DISTANCE_UM, estimatedScale, FAZ_RADIUS_UM, ONH_MARGIN_UM, proposeExclusionZones, scaleOf, zoneOf, zoneOnImage, zonesOverlap } from './exclusion-zones';

const landmarks = { opticDisc: { center: { x: 1300, y: 560 }, radiusPx: 120 }, fovea: { x: 700, y: 610 } };

describe('scaleOf', () => {
  it('takes the exam scale and adjusts it to a resized image', () => {
    expect(scaleOf(landmarks, 6, 1)).toEqual({ umPerPixel: 6, source: 'manifest' });
    expect(scaleOf(landmarks, 6, 0.5)).toEqual({ umPerPixel: 12, source: 'manifest' });
  });

  it('estimates the scale from the disc–fovea distance of 4.76 mm when the exam has none', () => {
    const scale = scaleOf(landmarks, null);
    const distance = Math.hypot(600, 50);
    expect(scale.source).toBe('estimated');
    expect(scale.umPerPixel).toBeCloseTo(4760 / distance, 6);
  });

  it('estimates too when the exam\'s scale is 0 or negative', () => {
    expect(scaleOf(landmarks, 0).source).toBe('estimated');
    expect(scaleOf(landmarks, -6).source).toBe('estimated');
  });

  it('falls back to the disc size when disc and fovea coincide', () => {
    const scale = scaleOf({ opticDisc: { center: { x: 5, y: 5 }, radiusPx: 90 }, fovea: { x: 5, y: 5 } }, null);
    expect(scale.umPerPixel).toBeCloseTo(10, 6);
  });
});

describe('proposeExclusionZones', () => {
  it('reaches the foveal minimum and the disc margin: 500 µm clearance + 100 µm aiming margin each', () => {
    expect(FAZ_RADIUS_UM).toBe(600);
    expect(ONH_MARGIN_UM).toBe(600);
  });

  it('centres a 600 µm FAZ on the fovea and an ONH of disc plus 600 µm on the disc', () => {
    const { faz, onh } = proposeExclusionZones(landmarks, { umPerPixel: 8, source: 'manifest' });
    expect(faz).toEqual({
      kind: 'FAZ',
      center: { x: 700, y: 610 },
      radiusXPx: 75,
      radiusYPx: 75,
      rotationDeg: 0,
      radiusXUm: 600,
      radiusYUm: 600,
      marginUm: 100,
    });
    expect(onh).toEqual({
      kind: 'ONH',
      center: { x: 1300, y: 560 },
      radiusXPx: 120 + 600 / 8,
      radiusYPx: 120 + 600 / 8,
      rotationDeg: 0,
      radiusXUm: 120 * 8 + 600,
      radiusYUm: 120 * 8 + 600,
      marginUm: 600,
    });
  });

  it('rounds a radius up to 0.01 px, so a zone is never smaller than its clinical size, and keeps µm = px × scale', () => {
    // 600 µm / 7 µm per px = 85.714… px → 85.72 px = 600.04 µm.
    const { faz, onh } = proposeExclusionZones(landmarks, { umPerPixel: 7, source: 'manifest' });
    expect(faz.radiusXPx).toBe(85.72);
    expect(faz.radiusXUm).toBe(85.72 * 7);
    expect(faz.radiusXUm).toBeGreaterThanOrEqual(FAZ_RADIUS_UM);
    // (120 px × 7 + 600) / 7 = 205.714… px → 205.72 px.
    expect(onh.radiusXPx).toBe(205.72);
    expect(onh.radiusXUm).toBeGreaterThanOrEqual(120 * 7 + ONH_MARGIN_UM);
  });

  it('follows a clinic\'s stricter limits', () => {
    const { limits } = clinicLimits({ fovealClearanceUm: 750, discClearanceUm: 800, aimingMarginUm: 150 });
    const { faz, onh } = proposeExclusionZones(landmarks, { umPerPixel: 10, source: 'manifest' }, limits);
    expect(faz.radiusXUm).toBe(900);
    expect(faz.marginUm).toBe(150);
    expect(onh.radiusXUm).toBe(120 * 10 + 950);
    expect(onh.marginUm).toBe(950);
  });
});

describe('estimatedScale', () => {
  it('is the anatomical mean disc–fovea distance of 4.76 mm over the distance in pixels', () => {
    expect(estimatedScale({ x: 100, y: 100 }, { center: { x: 100 + 476, y: 100 }, radiusPx: 90 })).toEqual({ umPerPixel: 10, source: 'estimated' });
    expect(estimatedScale({ x: 0, y: 0 }, { center: { x: 0.5, y: 0 }, radiusPx: 45 })).toEqual({ umPerPixel: 20, source: 'estimated' });
  });

  it('takes a disc–fovea distance of exactly one pixel as a distance', () => {
    expect(estimatedScale({ x: 0, y: 0 }, { center: { x: 1, y: 0 }, radiusPx: 45 })).toEqual({ umPerPixel: DISC_FOVEA_DISTANCE_UM, source: 'estimated' });
  });
});

describe('zoneOf and zoneOnImage', () => {
  it('carries a margin only when one is given', () => {
    const zone = zoneOf('FAZ', { center: { x: 10, y: 20 }, radiusXPx: 3, radiusYPx: 4 }, { umPerPixel: 5 });
    expect(Object.keys(zone)).not.toContain('marginUm');
    expect(zoneOf('FAZ', { center: { x: 10, y: 20 }, radiusXPx: 3, radiusYPx: 4 }, { umPerPixel: 5 }, 100).marginUm).toBe(100);
  });

  it('draws a zone on the image in pixels, turned clockwise by its degrees (y down)', () => {
    const onImage = zoneOnImage({ center: { x: 100, y: 50 }, radiusXPx: 30, radiusYPx: 10, rotationDeg: 90 });
    expect(onImage).toMatchObject({ cx: 100, cy: 50, rx: 30, ry: 10 });
    expect(onImage.rotation).toBeCloseTo(Math.PI / 2, 12);
    // Its long axis now points down the image.
    expect(insideEllipse(onImage, 100, 78)).toBe(true);
    expect(insideEllipse(onImage, 128, 50)).toBe(false);
  });
});

describe('zonesOverlap', () => {
  // A large circle and a small one whose overlap lies between two of the large one's outline points: only
  // the small one's outline finds it, whichever zone is named first.
  const large = { cx: 0, cy: 0, rx: 1000, ry: 1000, rotation: 0 };
  const between = Math.PI / 1024;
  const small = { cx: 1000.5 * Math.cos(between), cy: 1000.5 * Math.sin(between), rx: 1, ry: 1, rotation: 0 };

  it('finds an overlap that only one of the two outlines reaches, in either order', () => {
    // Neither centre lies in the other zone, and none of the large zone's 1,024 outline points in the small one.
    expect(insideEllipse(large, small.cx, small.cy) || insideEllipse(small, 0, 0)).toBe(false);
    expect(ellipseOutline(large, 1024).some((p) => insideEllipse(small, p.x, p.y))).toBe(false);
    expect(zonesOverlap(large, small)).toBe(true);
    expect(zonesOverlap(small, large)).toBe(true);
  });

  it('measures the distance between centres far from the origin', () => {
    const a = { cx: 100, cy: 40, rx: 6, ry: 6, rotation: 0 };
    expect(zonesOverlap(a, { cx: 110, cy: 40, rx: 6, ry: 6, rotation: 0 })).toBe(true);
    expect(zonesOverlap(a, { cx: 100, cy: 50, rx: 6, ry: 6, rotation: 0 })).toBe(true);
    expect(zonesOverlap(a, { cx: 113, cy: 40, rx: 6, ry: 6, rotation: 0 })).toBe(false);
  });

  it('reaches along a long zone\'s long axis: centres farther apart than one zone\'s radius and the other\'s short one', () => {
    const round = { cx: 0, cy: 0, rx: 5, ry: 5, rotation: 0 };
    const long = { cx: 22, cy: 0, rx: 20, ry: 2, rotation: 0 };
    expect(zonesOverlap(round, long)).toBe(true);
    expect(zonesOverlap(long, round)).toBe(true);
  });
});
