// The exclusion zones: the foveal avascular zone (FAZ), a circle around the fovea, and the optic nerve head
// (ONH), the disc plus a safety margin, a circle or a rotated ellipse. Proposed when an exam is processed
// (plan step 0), then confirmed, moved or reshaped by the user (step 1). A zone is drawn in image pixels;
// its µm radii are derived from them through the plan's scale, never set apart.
import type { FundusLandmarks, Point } from '../fundus/raster';
import type { NptExclusionZone, NptPlanScale } from '../npt/manifest';
import { ellipseOutline, insideEllipse, type Ellipse } from './ellipse';
import { imagePoint, rotationToRetina, toRetina, type RetinaFrame } from './frames';

/** Default FAZ radius around the fovea (product brief: 500 µm). */
export const FAZ_RADIUS_UM = 500;
/** Safety margin around the detected optic disc edge. */
export const ONH_MARGIN_UM = 200;
/** Anatomical distance from the disc centre to the fovea, used to estimate a scale the exam lacks. */
export const DISC_FOVEA_DISTANCE_UM = 4760;

// The plan's shapes are those a parameter set carries to the laser (docs/npt-format.md).
export type Scale = NptPlanScale;
export type ExclusionZone = NptExclusionZone;

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * The scale of an image: the exam's own when known (µm per pixel of the original image, adjusted to the
 * image the plan refers to), else estimated from the distance between disc and fovea.
 */
export function scaleOf(landmarks: FundusLandmarks, examUmPerPixel: number | null, resizeFactor = 1): Scale {
  if (examUmPerPixel !== null && examUmPerPixel > 0) {
    return { umPerPixel: examUmPerPixel / resizeFactor, source: 'manifest' };
  }
  const distance = Math.hypot(landmarks.fovea.x - landmarks.opticDisc.center.x, landmarks.fovea.y - landmarks.opticDisc.center.y);
  // A disc on the fovea (a failed detection) gives no usable distance: fall back to one disc radius ≈ 900 µm.
  const umPerPixel = distance >= 1 ? DISC_FOVEA_DISTANCE_UM / distance : 900 / Math.max(1, landmarks.opticDisc.radiusPx);
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

export function proposeExclusionZones(landmarks: FundusLandmarks, scale: Scale): { faz: ExclusionZone; onh: ExclusionZone } {
  const discRadiusUm = landmarks.opticDisc.radiusPx * scale.umPerPixel;
  return {
    faz: circle('FAZ', landmarks.fovea, FAZ_RADIUS_UM, scale),
    onh: circle('ONH', landmarks.opticDisc.center, discRadiusUm + ONH_MARGIN_UM, scale, ONH_MARGIN_UM),
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
  if (insideEllipse(a, b.cx, b.cy) || insideEllipse(b, a.cx, a.cy)) return true;
  if (Math.hypot(a.cx - b.cx, a.cy - b.cy) > Math.max(a.rx, a.ry) + Math.max(b.rx, b.ry)) return false;
  return ellipseOutline(a, OUTLINE_POINTS).some((p) => insideEllipse(b, p.x, p.y)) || ellipseOutline(b, OUTLINE_POINTS).some((p) => insideEllipse(a, p.x, p.y));
}
