// What a mark measures, at the plan's scale: a line's length in µm and in disc diameters, a circle's radius,
// diameter and area, a polygon's area and outline. The same numbers for the SPA (live while drawing), the
// server's answers and the report; each consumer only formats them (decimal separator, units). Every figure
// carries the scale's source, because an estimated scale (from the disc–fovea distance) is a rougher one.
import { type Micrometres, um } from '../planning/frames';
import { distancePx, type MarkShape, polygonAreaPx, polygonPerimeterPx } from './mark-shape';

export type ScaleSource = 'manifest' | 'estimated';

/** The plan's scale as marks use it. */
export interface MarkScale {
  /** µm on the retina per pixel of the display image (> 0). */
  readonly umPerPixel: number;
  readonly source: ScaleSource;
  /** The optic disc's diameter in px (twice the detected radius), or null when no disc is known. */
  readonly discDiameterPx: number | null;
}

export type MarkMeasurement =
  | { readonly kind: 'line'; readonly scaleSource: ScaleSource; readonly lengthUm: Micrometres; readonly lengthDd: number | null }
  | {
      readonly kind: 'circle';
      readonly scaleSource: ScaleSource;
      readonly radiusUm: Micrometres;
      readonly diameterUm: Micrometres;
      readonly diameterDd: number | null;
      readonly areaMm2: number;
    }
  | { readonly kind: 'polygon'; readonly scaleSource: ScaleSource; readonly areaMm2: number; readonly perimeterUm: Micrometres };

const UM2_PER_MM2 = 1_000_000;

// The precision every consumer shows: whole micrometres, 1/10,000 mm² (100 µm²), 1/100 disc diameter. Finer
// digits would claim more than a scale from an exam (let alone an estimated one) can carry.
const roundTo = (value: number, digits: number) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};
const wholeUm = (value: number) => um(roundTo(value, 0));
const mm2 = (areaPx2: number, umPerPixel: number) => roundTo((areaPx2 * umPerPixel * umPerPixel) / UM2_PER_MM2, 4);
const discDiameters = (lengthPx: number, scale: MarkScale) => (scale.discDiameterPx ? roundTo(lengthPx / scale.discDiameterPx, 2) : null);

/**
 * The plan's scale and optic disc as marks use them; null when processing has produced no scale (or it is not
 * a positive number). A disc without a positive radius counts as unknown.
 */
export function markScale(
  scale: { umPerPixel: number; source: ScaleSource } | null | undefined,
  opticDisc: { radiusPx: number } | null | undefined,
): MarkScale | null {
  if (!scale || !(Number.isFinite(scale.umPerPixel) && scale.umPerPixel > 0)) return null;
  const radius = opticDisc?.radiusPx;
  const discDiameterPx = typeof radius === 'number' && Number.isFinite(radius) && radius > 0 ? radius * 2 : null;
  return { umPerPixel: scale.umPerPixel, source: scale.source, discDiameterPx };
}

/**
 * The figures of a shape at a scale; null for a point (it measures nothing) and without a scale. Works on
 * any shape, checked or still being drawn (a polygon of fewer than three vertices has no area).
 */
export function measureMark(shape: MarkShape, scale: MarkScale | null): MarkMeasurement | null {
  if (!scale) return null;
  const { umPerPixel, source: scaleSource } = scale;
  switch (shape.kind) {
    case 'point':
      return null;
    case 'line': {
      const lengthPx = distancePx(shape.start, shape.end);
      return { kind: 'line', scaleSource, lengthUm: wholeUm(lengthPx * umPerPixel), lengthDd: discDiameters(lengthPx, scale) };
    }
    case 'circle': {
      const r = shape.radiusPx;
      return {
        kind: 'circle',
        scaleSource,
        radiusUm: wholeUm(r * umPerPixel),
        diameterUm: wholeUm(2 * r * umPerPixel),
        diameterDd: discDiameters(2 * r, scale),
        areaMm2: mm2(Math.PI * r * r, umPerPixel),
      };
    }
    case 'polygon':
      return {
        kind: 'polygon',
        scaleSource,
        areaMm2: mm2(polygonAreaPx(shape.points), umPerPixel),
        perimeterUm: wholeUm(polygonPerimeterPx(shape.points) * umPerPixel),
      };
  }
}
