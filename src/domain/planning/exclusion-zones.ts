// The exclusion zones proposed when an exam is processed (plan step 0): the foveal avascular zone (FAZ), a
// circle around the fovea, and the optic nerve head (ONH), the disc plus a safety margin. Radii are kept in
// image pixels and in µm on the retina, converted with the plan's scale.
import type { FundusLandmarks, Point } from '../fundus/raster';
import type { NptExclusionZone, NptPlanScale } from '../npt/manifest';

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

function circle(kind: ExclusionZone['kind'], center: Point, radiusUm: number, scale: Scale, marginUm?: number): ExclusionZone {
  const radiusPx = round2(radiusUm / scale.umPerPixel);
  const zone: ExclusionZone = {
    kind,
    center: { x: round2(center.x), y: round2(center.y) },
    radiusXPx: radiusPx,
    radiusYPx: radiusPx,
    rotationDeg: 0,
    radiusXUm: round2(radiusUm),
    radiusYUm: round2(radiusUm),
  };
  return marginUm === undefined ? zone : { ...zone, marginUm };
}

export function proposeExclusionZones(landmarks: FundusLandmarks, scale: Scale): { faz: ExclusionZone; onh: ExclusionZone } {
  const discRadiusUm = landmarks.opticDisc.radiusPx * scale.umPerPixel;
  return {
    faz: circle('FAZ', landmarks.fovea, FAZ_RADIUS_UM, scale),
    onh: circle('ONH', landmarks.opticDisc.center, discRadiusUm + ONH_MARGIN_UM, scale, ONH_MARGIN_UM),
  };
}
