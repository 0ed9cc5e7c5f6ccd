import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markScale, measureMark } from './measure';

const scale = { umPerPixel: 7.5, source: 'manifest' as const, discDiameterPx: 220 };

describe('measureMark', () => {
  it('gives a line’s length in µm and in disc diameters, with the scale’s source', () => {
    // 300 px at 7.5 µm/px = 2250 µm; the disc is 220 px across.
    expect(measureMark({ kind: 'line', start: { x: 100, y: 100 }, end: { x: 280, y: 340 } }, scale)).toEqual({
      kind: 'line',
      scaleSource: 'manifest',
      lengthUm: 2250,
      lengthDd: 1.36,
    });
  });

  it('leaves out the disc diameters when no disc is known', () => {
    const line = measureMark({ kind: 'line', start: { x: 0, y: 0 }, end: { x: 100, y: 0 } }, { ...scale, source: 'estimated', discDiameterPx: null });
    expect(line).toEqual({ kind: 'line', scaleSource: 'estimated', lengthUm: 750, lengthDd: null });
  });

  it('gives a circle’s radius, diameter, area and diameter in disc diameters', () => {
    // r = 40 px = 300 µm; area π·0.3² mm² = 0.2827 mm².
    expect(measureMark({ kind: 'circle', center: { x: 500, y: 500 }, radiusPx: 40 }, scale)).toEqual({
      kind: 'circle',
      scaleSource: 'manifest',
      radiusUm: 300,
      diameterUm: 600,
      diameterDd: 0.36,
      areaMm2: 0.2827,
    });
  });

  it('gives a polygon’s area in mm² and outline in µm', () => {
    // A 200 × 100 px rectangle at 5 µm/px: 1000 × 500 µm = 0.5 mm², outline 3000 µm.
    const rectangle = { kind: 'polygon' as const, points: [{ x: 0, y: 0 }, { x: 200, y: 0 }, { x: 200, y: 100 }, { x: 0, y: 100 }] };
    expect(measureMark(rectangle, { umPerPixel: 5, source: 'estimated', discDiameterPx: null })).toEqual({
      kind: 'polygon',
      scaleSource: 'estimated',
      areaMm2: 0.5,
      perimeterUm: 3000,
    });
  });

  it('measures nothing for a point or without a scale', () => {
    expect(measureMark({ kind: 'point', at: { x: 1, y: 1 } }, scale)).toBeNull();
    expect(measureMark({ kind: 'line', start: { x: 0, y: 0 }, end: { x: 1, y: 0 } }, null)).toBeNull();
  });

  it('measures a polygon still being drawn (fewer than three vertices: no area)', () => {
    expect(measureMark({ kind: 'polygon', points: [{ x: 0, y: 0 }, { x: 10, y: 0 }] }, scale)).toMatchObject({ areaMm2: 0, perimeterUm: 150 });
  });

  it('gives a line the same length whichever end comes first, in proportion to the scale', () => {
    const coordinate = fc.double({ min: 0, max: 4096, noNaN: true });
    fc.assert(
      fc.property(coordinate, coordinate, coordinate, coordinate, fc.double({ min: 1, max: 30, noNaN: true }), (x1, y1, x2, y2, umPerPixel) => {
        const at = { umPerPixel, source: 'manifest' as const, discDiameterPx: 200 };
        const forth = measureMark({ kind: 'line', start: { x: x1, y: y1 }, end: { x: x2, y: y2 } }, at);
        const back = measureMark({ kind: 'line', start: { x: x2, y: y2 }, end: { x: x1, y: y1 } }, at);
        expect(forth).toEqual(back);
        expect(forth?.kind === 'line' && Math.abs(forth.lengthUm - Math.hypot(x2 - x1, y2 - y1) * umPerPixel)).toBeLessThanOrEqual(0.5);
      }),
    );
  });
});

describe('markScale', () => {
  it('takes the plan’s scale and twice the disc radius', () => {
    expect(markScale({ umPerPixel: 7.5, source: 'manifest' }, { radiusPx: 110 })).toEqual({ umPerPixel: 7.5, source: 'manifest', discDiameterPx: 220 });
    expect(markScale({ umPerPixel: 7.5, source: 'estimated' }, null)).toEqual({ umPerPixel: 7.5, source: 'estimated', discDiameterPx: null });
    expect(markScale({ umPerPixel: 7.5, source: 'estimated' }, { radiusPx: 0 })?.discDiameterPx).toBeNull();
  });

  it('has no scale before processing produced one, or with one that is not a positive number', () => {
    expect(markScale(null, { radiusPx: 110 })).toBeNull();
    expect(markScale({ umPerPixel: 0, source: 'manifest' }, null)).toBeNull();
    expect(markScale({ umPerPixel: Number.NaN, source: 'manifest' }, null)).toBeNull();
  });
});
