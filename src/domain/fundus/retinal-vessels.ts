// The retinal vessel tree of a synthetic fundus, grown as curved, tapering, branching paths from the optic
// disc. Geometry only (segments in image pixels); the painter turns them into blood absorption.
import type { Point } from './raster';
import type { SeededRandom } from './seeded-random';

export type VesselKind = 'artery' | 'vein';

/** A short piece of one vessel: a capsule whose radius changes linearly from one end to the other. */
export interface VesselSegment {
  kind: VesselKind;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  radius0Px: number;
  radius1Px: number;
}

export interface VesselTreeLayout {
  fieldCenter: Point;
  fieldRadiusPx: number;
  discCenter: Point;
  discRadiusPx: number;
  /** Where the central retinal vessels surface in the disc (in the cup). */
  vesselOrigin: Point;
  fovea: Point;
  umPerPixel: number;
  /** No vessel reaches closer to the fovea than this (the foveal avascular zone and its margin). */
  avascularRadiusPx: number;
}

// Anatomical sizes, in micrometres on the retina.
const VEIN_TRUNK_RADIUS_UM = 70;
const ARTERY_TRUNK_RADIUS_UM = 54;
const NASAL_VEIN_RADIUS_UM = 50;
const NASAL_ARTERY_RADIUS_UM = 40;
const SMALLEST_RADIUS_UM = 6;
const MAX_BRANCH_DEPTH = 7;
// A guard against pathological parameter draws; a normal tree has a few thousand segments.
const MAX_SEGMENTS = 120_000;

type Steering =
  | { mode: 'arcade'; side: 1 | -1; radiusScale: number; bulge: number; spread: number }
  | { mode: 'directed'; dirX: number; dirY: number; strength: number }
  | { mode: 'free'; dirX: number; dirY: number };

interface Sprout {
  kind: VesselKind;
  x: number;
  y: number;
  heading: number;
  radiusUm: number;
  depth: number;
  steering: Steering;
}

const DEG = Math.PI / 180;
const DISC_FOVEA_UM = 4760;

const branchIntervalUm = (radiusUm: number) => 300 + 14 * radiusUm;

function wrapAngle(angle: number): number {
  let a = angle;
  while (a > Math.PI) a -= 2 * Math.PI;
  while (a < -Math.PI) a += 2 * Math.PI;
  return a;
}

export function growRetinalVessels(layout: VesselTreeLayout, random: SeededRandom): VesselSegment[] {
  const { fieldCenter, fieldRadiusPx, discCenter, discRadiusPx, vesselOrigin, fovea, umPerPixel, avascularRadiusPx } =
    layout;
  const discFoveaPx = Math.hypot(discCenter.x - fovea.x, discCenter.y - fovea.y);
  // Local anatomical frame: nasal points from the fovea to the disc, superior is the perpendicular that
  // points up in the image, so the same rules serve both eyes.
  const nasalX = (discCenter.x - fovea.x) / discFoveaPx;
  const nasalY = (discCenter.y - fovea.y) / discFoveaPx;
  let superiorX = nasalY;
  let superiorY = -nasalX;
  if (superiorY > 0) {
    superiorX = -superiorX;
    superiorY = -superiorY;
  }
  const directionAngle = (along: number, up: number) =>
    Math.atan2(along * nasalY + up * superiorY, along * nasalX + up * superiorX);

  const segments: VesselSegment[] = [];
  const sprouts: Sprout[] = [];
  const smallestRadiusPx = Math.max(SMALLEST_RADIUS_UM / umPerPixel, 0.3);

  const startNear = (spread: number) => {
    const angle = random.uniform(0, 2 * Math.PI);
    const distance = discRadiusPx * spread * Math.sqrt(random.next());
    return { x: vesselOrigin.x + Math.cos(angle) * distance, y: vesselOrigin.y + Math.sin(angle) * distance };
  };

  for (const side of [1, -1] as const) {
    // Artery and vein of one arcade run side by side, not on top of each other.
    const veinArcadeScale = random.uniform(0.92, 1.08);
    const arteryArcadeScale = veinArcadeScale + (random.chance(0.5) ? 1 : -1) * random.uniform(0.06, 0.14);
    for (const kind of ['vein', 'artery'] as const) {
      const start = startNear(0.1);
      // Temporal trunks leave the disc towards the superior (inferior) pole, tilted temporally.
      const tilt = random.uniform(30, 55) * DEG;
      sprouts.push({
        kind,
        ...start,
        heading: directionAngle(-Math.sin(tilt), side * Math.cos(tilt)),
        radiusUm: (kind === 'vein' ? VEIN_TRUNK_RADIUS_UM : ARTERY_TRUNK_RADIUS_UM) * random.uniform(0.9, 1.12),
        depth: 0,
        steering: {
          mode: 'arcade',
          side,
          radiusScale: kind === 'vein' ? veinArcadeScale : arteryArcadeScale,
          bulge: random.uniform(0.22, 0.36),
          spread: random.uniform(0.1, 0.3),
        },
      });
      const nasalAngle = random.uniform(30, 70) * DEG;
      const dirX = Math.cos(nasalAngle);
      const dirY = side * Math.sin(nasalAngle);
      const heading = directionAngle(dirX, dirY);
      sprouts.push({
        kind,
        ...startNear(0.1),
        heading,
        radiusUm: (kind === 'vein' ? NASAL_VEIN_RADIUS_UM : NASAL_ARTERY_RADIUS_UM) * random.uniform(0.85, 1.15),
        depth: 0,
        steering: { mode: 'directed', dirX: Math.cos(heading), dirY: Math.sin(heading), strength: 0.25 },
      });
    }
  }
  // Small papillomacular and nasal vessels that leave the disc directly.
  const extras = random.integer(2, 5);
  for (let i = 0; i < extras; i++) {
    const towardsMacula = i < 2 || random.chance(0.4);
    const along = towardsMacula ? -1 : 1;
    const up = random.uniform(-0.5, 0.5);
    const heading = directionAngle(along, up);
    sprouts.push({
      kind: random.chance(0.5) ? 'vein' : 'artery',
      ...startNear(0.4),
      heading,
      radiusUm: random.uniform(12, 22),
      depth: 2,
      steering: { mode: 'free', dirX: Math.cos(heading), dirY: Math.sin(heading) },
    });
  }

  const insideAvascularZone = (x: number, y: number, radiusPx: number) =>
    Math.hypot(x - fovea.x, y - fovea.y) < avascularRadiusPx + radiusPx;

  while (sprouts.length > 0 && segments.length < MAX_SEGMENTS) {
    const sprout = sprouts.pop() as Sprout;
    const { kind, depth, steering } = sprout;
    let { x, y, heading } = sprout;
    let radiusPx = sprout.radiusUm / umPerPixel;
    let angularVelocity = 0;
    const startSide = Math.sign((x - fovea.x) * superiorX + (y - fovea.y) * superiorY) || 1;
    // Trunks first branch one to two disc diameters from the disc; branches after a short stem.
    let untilBranchUm =
      depth === 0
        ? random.uniform(0.2, 0.45) * DISC_FOVEA_UM
        : random.uniform(0.3, 1.0) * branchIntervalUm(sprout.radiusUm);
    // Trunks run out of the picture; a branch lives for a length that grows with its calibre.
    const lifeUm = depth === 0 ? Infinity : sprout.radiusUm * random.uniform(110, 260);
    let travelledUm = 0;
    let nextBranchSide = random.chance(0.5) ? 1 : -1;
    // The arcades run smoother than the other vessels.
    const wander = (steering.mode === 'arcade' ? 0.016 : 0.028) * random.uniform(0.7, 1.3);

    for (let guard = 0; guard < 4000; guard++) {
      if (radiusPx < smallestRadiusPx) break;
      const stepPx = Math.min(Math.max(2.5 * radiusPx, 1.5), fieldRadiusPx * 0.012);

      const toFoveaX = x - fovea.x;
      const toFoveaY = y - fovea.y;
      const foveaDistance = Math.hypot(toFoveaX, toFoveaY);
      const along = toFoveaX * nasalX + toFoveaY * nasalY;
      const up = toFoveaX * superiorX + toFoveaY * superiorY;

      let desired = heading;
      let gain = 0;
      if (steering.mode === 'arcade') {
        const polar = Math.atan2(steering.side * up, along);
        if (polar > 0.75 * Math.PI) {
          // Past the macula the arcade runs on towards the temporal periphery, away from the raphe.
          desired = directionAngle(-1, steering.side * 0.3);
          gain = stepPx / (0.4 * discFoveaPx);
        } else {
          const clamped = Math.max(0, polar);
          const targetRadius =
            discFoveaPx *
            steering.radiusScale *
            (0.95 - steering.bulge * Math.sin(clamped) + steering.spread * Math.max(0, clamped - Math.PI / 2));
          const tangentAlong = -Math.sin(clamped);
          const tangentUp = steering.side * Math.cos(clamped);
          const radialAlong = Math.cos(clamped);
          const radialUp = steering.side * Math.sin(clamped);
          const correction = Math.max(-1.1, Math.min(1.1, (2.5 * (targetRadius - foveaDistance)) / discFoveaPx));
          desired = directionAngle(
            tangentAlong * Math.cos(correction) + radialAlong * Math.sin(correction),
            tangentUp * Math.cos(correction) + radialUp * Math.sin(correction),
          );
          gain = stepPx / (0.07 * discFoveaPx);
        }
      } else if (steering.mode === 'directed') {
        desired = Math.atan2(steering.dirY, steering.dirX);
        gain = (steering.strength * stepPx) / (0.3 * discFoveaPx);
      } else {
        // Branches keep their direction but drift outwards from the disc, as the real tree radiates.
        const fromDiscX = x - discCenter.x;
        const fromDiscY = y - discCenter.y;
        const fromDisc = Math.hypot(fromDiscX, fromDiscY) || 1;
        desired = Math.atan2(steering.dirY + (0.3 * fromDiscY) / fromDisc, steering.dirX + (0.3 * fromDiscX) / fromDisc);
        gain = stepPx / (0.5 * discFoveaPx);
      }

      angularVelocity = angularVelocity * 0.8 + random.normal(0, wander) * Math.sqrt(stepPx / 4);
      const maxTurn = stepPx / (0.1 * discFoveaPx + 6 * radiusPx);
      const turn = wrapAngle(desired - heading) * Math.min(1, gain) + angularVelocity;
      heading = wrapAngle(heading + Math.max(-maxTurn, Math.min(maxTurn, turn)));

      const stepUm = stepPx * umPerPixel;
      travelledUm += stepUm;
      if (travelledUm > lifeUm) break;
      // Vessels thin out towards their end and as they approach the macula, so that those ending at the
      // avascular zone arrive as capillary-sized twigs.
      const macular = Math.max(0, 1 - foveaDistance / (0.55 * discFoveaPx));
      const taperLengthUm = (depth === 0 ? 25_000 : 0.9 * lifeUm) / (1 + 6 * macular);
      const nextRadiusPx = radiusPx * Math.exp(-stepUm / taperLengthUm);
      const nx = x + Math.cos(heading) * stepPx;
      const ny = y + Math.sin(heading) * stepPx;

      if (insideAvascularZone(nx, ny, nextRadiusPx)) break;
      const nextUp = (nx - fovea.x) * superiorX + (ny - fovea.y) * superiorY;
      const nextAlong = (nx - fovea.x) * nasalX + (ny - fovea.y) * nasalY;
      // Temporal to the fovea the superior and inferior trees meet at the horizontal raphe, not crossing it.
      if (depth > 0 && nextAlong < 0 && Math.sign(nextUp) !== startSide && Math.abs(nextUp) > radiusPx) break;
      segments.push({ kind, x0: x, y0: y, x1: nx, y1: ny, radius0Px: radiusPx, radius1Px: nextRadiusPx });
      x = nx;
      y = ny;
      radiusPx = nextRadiusPx;
      // The last segment reaches just past the rim, where the field's dark edge hides its end.
      if (Math.hypot(x - fieldCenter.x, y - fieldCenter.y) > fieldRadiusPx) break;

      untilBranchUm -= stepUm;
      if (untilBranchUm <= 0 && depth < MAX_BRANCH_DEPTH) {
        const currentRadiusUm = radiusPx * umPerPixel;
        const share = depth === 0 ? random.uniform(0.3, 0.6) : random.uniform(0.45, 0.8);
        const childRadiusUm = currentRadiusUm * share;
        untilBranchUm = random.uniform(0.5, 1.3) * branchIntervalUm(currentRadiusUm);
        if (childRadiusUm > SMALLEST_RADIUS_UM * 1.3) {
          const side = random.chance(0.7) ? nextBranchSide : -nextBranchSide;
          nextBranchSide = -side;
          let childHeading = heading + side * random.uniform(30, 75) * DEG * (1 - 0.4 * share);
          const pointsAtMacula = Math.cos(childHeading) * (fovea.x - x) + Math.sin(childHeading) * (fovea.y - y) > 0;
          if (steering.mode === 'arcade' && pointsAtMacula) {
            // Macular branches of the arcades converge on the fovea and end at the avascular zone.
            childHeading = Math.atan2(fovea.y - y, fovea.x - x) + random.normal(0, 20 * DEG);
          }
          sprouts.push({
            kind,
            x,
            y,
            heading: childHeading,
            radiusUm: childRadiusUm,
            depth: depth + 1,
            steering: { mode: 'free', dirX: Math.cos(childHeading), dirY: Math.sin(childHeading) },
          });
          // Murray's law: the parent keeps the flow the child does not take (r³ is conserved).
          radiusPx *= Math.cbrt(1 - share ** 3);
          heading -= side * share * share * 25 * DEG;
        }
      }
    }
  }
  return segments;
}
