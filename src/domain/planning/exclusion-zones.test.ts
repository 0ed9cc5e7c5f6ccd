import { describe, expect, it } from 'vitest';
import { FAZ_RADIUS_UM, ONH_MARGIN_UM, proposeExclusionZones, scaleOf } from './exclusion-zones';

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

  it('falls back to the disc size when disc and fovea coincide', () => {
    const scale = scaleOf({ opticDisc: { center: { x: 5, y: 5 }, radiusPx: 90 }, fovea: { x: 5, y: 5 } }, null);
    expect(scale.umPerPixel).toBeCloseTo(10, 6);
  });
});

describe('proposeExclusionZones', () => {
  it('centres a 500 µm FAZ on the fovea and an ONH of disc plus margin on the disc', () => {
    const { faz, onh } = proposeExclusionZones(landmarks, { umPerPixel: 8, source: 'manifest' });
    expect(faz).toEqual({
      kind: 'FAZ',
      center: { x: 700, y: 610 },
      radiusXPx: 62.5,
      radiusYPx: 62.5,
      rotationDeg: 0,
      radiusXUm: FAZ_RADIUS_UM,
      radiusYUm: FAZ_RADIUS_UM,
    });
    expect(onh.kind).toBe('ONH');
    expect(onh.center).toEqual({ x: 1300, y: 560 });
    expect(onh.radiusXUm).toBe(120 * 8 + ONH_MARGIN_UM);
    expect(onh.radiusXPx).toBe(120 + ONH_MARGIN_UM / 8);
    expect(onh.marginUm).toBe(ONH_MARGIN_UM);
  });

  it('rounds a radius up to 0.01 px, so a zone is never smaller than its clinical size, and keeps µm = px × scale', () => {
    const { faz } = proposeExclusionZones(landmarks, { umPerPixel: 7.5, source: 'manifest' });
    expect(faz.radiusXPx).toBe(66.67);
    expect(faz.radiusXUm).toBe(66.67 * 7.5);
    expect(faz.radiusXUm).toBeGreaterThanOrEqual(FAZ_RADIUS_UM);
  });
});
