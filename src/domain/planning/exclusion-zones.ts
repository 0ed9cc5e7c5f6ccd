// The exclusion zones: the foveal avascular zone (FAZ), a circle around the fovea, and the optic nerve head
// (ONH), the disc plus a safety margin, a circle or a rotated ellipse. Proposed when an exam is processed
// (plan step 0), then confirmed, moved or reshaped by the user (step 1). A zone is drawn in image pixels;
// its µm radii are derived from them through the plan's scale, never set apart.
import type { FundusLandmarks, Point } from '../fundus/raster';
import { DEFAULT_CLINICAL_LIMITS, DISC_FOVEA, discMarginUm, fovealMinimumUm, type ClinicalLimits } from './clinical-limits';
import type { NptExclusionZone, NptPlanScale } from '../npt/manifest';
import { ellipseOutline, insideEllipse, type Ellipse } from './ellipse';
import { imagePoint, rotationToRetina, toRetina, type RetinaFrame } from './frames';

/** Proposed FAZ radius around the fovea: the foveal clearance plus the aiming margin (clinical-limits.ts). */
export const FAZ_RADIUS_UM = fovealMinimumUm(DEFAULT_CLINICAL_LIMITS);
/** Proposed margin around the optic disc's edge: the disc clearance plus the aiming margin. */
export const ONH_MARGIN_UM = discMarginUm(DEFAULT_CLINICAL_LIMITS);
/** Anatomical distance from the disc centre to the fovea, used to estimate a scale the exam lacks (Jonas 2015). */
export const DISC_FOVEA_DISTANCE_UM = DISC_FOVEA.meanUm;

// The plan's shapes are those a parameter set carries to the laser (docs/npt-format.md).
export type Scale = NptPlanScale;
export type ExclusionZone = NptExclusionZone;

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * The scale of an image: the exam's own when known (µm per pixel of the original image, adjusted to the
 * image the plan refers to), else estimated from the distance between disc and fovea.
 */
export function scaleOf(landmarks: FundusLandmarks, examUmPerPixel: number | null, resizeFactor = 1): Scale {
  // Stryker disable next-line ConditionalExpression: `null > 0` is false as well; the null check is for the types.
  if (examUmPerPixel !== null && examUmPerPixel > 0) {
    return { umPerPixel: examUmPerPixel / resizeFactor, source: 'manifest' };
  }
  return estimatedScale(landmarks.fovea, landmarks.opticDisc);
}

/**
 * The scale estimated from the distance between disc and fovea (the anatomical mean, ±7.1 % for one eye);
 * again whenever a physician moves either.
 */
export function estimatedScale(fovea: Point, opticDisc: { center: Point; radiusPx: number }): Scale {
  const distance = Math.hypot(fovea.x - opticDisc.center.x, fovea.y - opticDisc.center.y);
  // A disc on the fovea (a failed detection) gives no usable distance: fall back to one disc radius ≈ 900 µm.
  const umPerPixel = distance >= 1 ? DISC_FOVEA_DISTANCE_UM / distance : 900 / Math.max(1, opticDisc.radiusPx);
  return { umPerPixel, source: 'estimated' };
}

/** A zone's shape as the user draws it: image pixels. */
export interface ZoneShape {
  center: Point;
  radiusXPx: number;
  radiusYPx: number;
  rotationDeg?: number;
}

/** The zone of a drawn shape, its µm radii derived through the scale. */
export function zoneOf(kind: ExclusionZone['kind'], shape: ZoneShape, scale: Pick<Scale, 'umPerPixel'>, marginUm?: number): ExclusionZone {
  const zone: ExclusionZone = {
    kind,
    center: { x: shape.center.x, y: shape.center.y },
    radiusXPx: shape.radiusXPx,
    radiusYPx: shape.radiusYPx,
    // -0 and 0 are the same turn; keep the stored plan free of -0.
    rotationDeg: (shape.rotationDeg ?? 0) || 0,
    radiusXUm: shape.radiusXPx * scale.umPerPixel,
    radiusYUm: shape.radiusYPx * scale.umPerPixel,
  };
  return marginUm === undefined ? zone : { ...zone, marginUm };
}

function circle(kind: ExclusionZone['kind'], center: Point, radiusUm: number, scale: Scale, marginUm?: number): ExclusionZone {
  // Rounded up: a zone is never smaller than its clinical size.
  const radiusPx = Math.ceil((radiusUm / scale.umPerPixel) * 100) / 100;
  return zoneOf(kind, { center: { x: round2(center.x), y: round2(center.y) }, radiusXPx: radiusPx, radiusYPx: radiusPx }, scale, marginUm);
}

/**
 * The zones proposed for detected landmarks: the FAZ as far as the foveal minimum reaches, the ONH the disc with
 * its margin (both with the aiming margin, so the proposal always satisfies the clinical limits).
 */
export function proposeExclusionZones(landmarks: FundusLandmarks, scale: Scale, limits: ClinicalLimits = DEFAULT_CLINICAL_LIMITS): { faz: ExclusionZone; onh: ExclusionZone } {
  const discRadiusUm = landmarks.opticDisc.radiusPx * scale.umPerPixel;
  const margin = discMarginUm(limits);
  return {
    faz: circle('FAZ', landmarks.fovea, fovealMinimumUm(limits), scale, limits.aimingMarginUm),
    onh: circle('ONH', landmarks.opticDisc.center, discRadiusUm + margin, scale, margin),
  };
}

/** The zone as an ellipse in the retina frame (µm around the fovea, y up). */
export function zoneInRetina(zone: Pick<ExclusionZone, 'center' | 'radiusXPx' | 'radiusYPx' | 'rotationDeg'>, frame: RetinaFrame): Ellipse {
  const centre = toRetina(frame, imagePoint(zone.center.x, zone.center.y));
  return {
    cx: centre.xUm,
    cy: centre.yUm,
    rx: zone.radiusXPx * frame.umPerPixel,
    ry: zone.radiusYPx * frame.umPerPixel,
    rotation: (rotationToRetina(zone.rotationDeg) * Math.PI) / 180,
  };
}

/** The zone as an ellipse on the image (pixels, y down). */
export function zoneOnImage(zone: Pick<ExclusionZone, 'center' | 'radiusXPx' | 'radiusYPx' | 'rotationDeg'>): Ellipse {
  return { cx: zone.center.x, cy: zone.center.y, rx: zone.radiusXPx, ry: zone.radiusYPx, rotation: (zone.rotationDeg * Math.PI) / 180 };
}

/**
 * The FAZ hangs on the fovea: moving the fovea moves the FAZ by the same offset (and with it the grid,
 * which is laid out around the fovea). The ONH stays with the disc.
 */
export function moveFovea<Z extends { faz: ExclusionZone; onh: ExclusionZone }>(zones: Z, from: Point, to: Point): Z {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  return { ...zones, faz: { ...zones.faz, center: { x: zones.faz.center.x + dx, y: zones.faz.center.y + dy } } };
}

/** Points checked along a zone's edge for an overlap: < 0.1 % of the circumference apart. */
const OUTLINE_POINTS = 1024;

/** True when the two filled ellipses share a point (one inside the other included). */
export function zonesOverlap(a: Ellipse, b: Ellipse): boolean {
  // Two shortcuts before the outlines: a centre inside the other zone (its outline reaches it then too), and
  // centres too far apart to meet (no outline point could be inside). Neither changes an answer.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a shortcut; the outlines give the same answer.
  if (insideEllipse(a, b.cx, b.cy) || insideEllipse(b, a.cx, a.cy)) return true;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut; the outlines give the same answer.
  if (Math.hypot(a.cx - b.cx, a.cy - b.cy) > Math.max(a.rx, a.ry) + Math.max(b.rx, b.ry)) return false;
  return ellipseOutline(a, OUTLINE_POINTS).some((p) => insideEllipse(b, p.x, p.y)) || ellipseOutline(b, OUTLINE_POINTS).some((p) => insideEllipse(a, p.x, p.y));
}
