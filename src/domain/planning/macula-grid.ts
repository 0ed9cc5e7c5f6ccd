// The macula grid: laser spots on a hexagonal or square lattice around the fovea, filling the ring between
// the inner and the outer radius, never touching an exclusion zone and never leaving the imaged field.
// Laid out in µm on the retina (the lattice is centred on the fovea), converted to image pixels per spot.
// A spot's id is its lattice position, so laying the same grid out again gives every spot its old id and a
// spot the user removed stays removed.
import { NPT_RANGES } from '../npt/manifest';
import { discTouchesEllipse, type Ellipse } from './ellipse';
import { zoneInRetina, type ExclusionZone } from './exclusion-zones';
import { imagePoint, retinaPoint, toImage, toRetina, type RetinaFrame } from './frames';

export type GridPattern = 'hexagonal' | 'square';

export interface GridSettings {
  pattern: GridPattern;
  /** Spot diameter on the retina, µm. */
  spotSizeUm: number;
  /** Centre-to-centre distance in spot diameters. */
  spacing: number;
  /** The ring around the fovea the spots fill, µm: every spot lies wholly between the two radii. */
  innerRadiusUm: number;
  outerRadiusUm: number;
}

/** The part of the image that shows retina: the frame, and within it the camera's circular aperture if any. */
export interface ImagedField {
  width: number;
  height: number;
  aperture: { center: { x: number; y: number }; radiusPx: number } | null;
}

export interface GridSpot {
  id: number;
  /** Image pixels. */
  x: number;
  y: number;
  /** µm relative to the fovea, y up. */
  xUm: number;
  yUm: number;
  enabled: boolean;
}

/** A parameter set holds at most this many spots (docs/npt-format.md). */
export const MAX_SPOTS = NPT_RANGES.spots;

// Lattice indices are offset into a positive id: (i + OFFSET) · STRIDE + (j + OFFSET). The contract's
// bounds (outer radius ≤ 6,000 µm, pitch ≥ 25 µm) keep |i|, |j| below 250.
const OFFSET = 1024;
const STRIDE = 2048;

export const spotId = (i: number, j: number) => (i + OFFSET) * STRIDE + (j + OFFSET);

/** The lattice indices of an id, or null for an id no lattice position has. */
export function latticeIndices(id: number): { i: number; j: number } | null {
  if (!Number.isSafeInteger(id) || id < 0 || id >= STRIDE * STRIDE) return null;
  return { i: Math.floor(id / STRIDE) - OFFSET, j: (id % STRIDE) - OFFSET };
}

export const gridPitchUm = (settings: Pick<GridSettings, 'spotSizeUm' | 'spacing'>) => settings.spotSizeUm * settings.spacing;

const rowHeightUm = (settings: GridSettings) => (settings.pattern === 'hexagonal' ? (gridPitchUm(settings) * Math.sqrt(3)) / 2 : gridPitchUm(settings));

/** Where lattice position (i, j) lies, µm around the fovea. Hexagonal rows of odd j are shifted by half a pitch. */
export function latticePosition(settings: GridSettings, i: number, j: number): { xUm: number; yUm: number } {
  const pitch = gridPitchUm(settings);
  const shift = settings.pattern === 'hexagonal' && j & 1 ? 0.5 : 0;
  return { xUm: (i + shift) * pitch, yUm: j * rowHeightUm(settings) };
}

/** What a spot must keep clear of, prepared once per layout or check. */
export interface GridSurroundings {
  frame: RetinaFrame;
  zones: readonly Ellipse[];
  field: ImagedField;
}

export function gridSurroundings(frame: RetinaFrame, zones: readonly ExclusionZone[], field: ImagedField): GridSurroundings {
  return { frame, zones: zones.map((zone) => zoneInRetina(zone, frame)), field };
}

export const withinRing = (settings: GridSettings, xUm: number, yUm: number) => {
  const distance = Math.sqrt(xUm * xUm + yUm * yUm);
  const radius = settings.spotSizeUm / 2;
  return distance - radius >= settings.innerRadiusUm && distance + radius <= settings.outerRadiusUm;
};

/** True when the whole spot (centre in image pixels, radius in pixels) lies in the imaged field. */
export function withinField(field: ImagedField, x: number, y: number, radiusPx: number): boolean {
  if (x - radiusPx < 0 || y - radiusPx < 0 || x + radiusPx > field.width || y + radiusPx > field.height) return false;
  const { aperture } = field;
  if (!aperture) return true;
  const dx = x - aperture.center.x;
  const dy = y - aperture.center.y;
  return Math.sqrt(dx * dx + dy * dy) + radiusPx <= aperture.radiusPx;
}

/**
 * How close a spot may come to a zone and still count as touching it: one picometre, far below anything a
 * laser can aim but far above the rounding of doubles, so that a spot on a zone's very edge is never let
 * through by the last bit of a float.
 */
export const CONTACT_UM = 1e-6;

/** The index of the first zone the spot touches (its edge included, within CONTACT_UM), or -1. */
export function touchedZone(surroundings: GridSurroundings, xUm: number, yUm: number, radiusUm: number): number {
  const { zones } = surroundings;
  for (let k = 0; k < zones.length; k++) if (discTouchesEllipse(zones[k], xUm, yUm, radiusUm + CONTACT_UM)) return k;
  return -1;
}

/**
 * True when a spot is clear of every zone at both positions it carries: its µm, and its pixels read back
 * into µm (the two differ by rounding, and a spot exactly at a zone's edge must not pass on one of them).
 */
export function clearOfZones(surroundings: GridSurroundings, spot: { x: number; y: number; xUm: number; yUm: number }, radiusUm: number): boolean {
  if (touchedZone(surroundings, spot.xUm, spot.yUm, radiusUm) >= 0) return false;
  const back = toRetina(surroundings.frame, imagePoint(spot.x, spot.y));
  return touchedZone(surroundings, back.xUm, back.yUm, radiusUm) < 0;
}

export class TooManySpotsError extends Error {
  constructor(readonly limit: number) {
    super(`The grid would hold more than ${limit} spots`);
  }
}

/**
 * Lays the grid out: every lattice position whose spot lies wholly in the ring and in the imaged field and
 * touches no zone, in lattice order (row by row from the bottom). Ids in `disabledSpotIds` come out
 * disabled; ids that are not in the layout are ignored (see `unknownSpotIds`). Throws TooManySpotsError when
 * more than MAX_SPOTS (or `limit`) spots would fit.
 */
export function layOutGrid(settings: GridSettings, surroundings: GridSurroundings, disabledSpotIds: Iterable<number> = [], limit = MAX_SPOTS): GridSpot[] {
  const disabled = disabledSpotIds instanceof Set ? (disabledSpotIds as Set<number>) : new Set(disabledSpotIds);
  const radiusUm = settings.spotSizeUm / 2;
  const radiusPx = radiusUm / surroundings.frame.umPerPixel;
  const rows = Math.floor(settings.outerRadiusUm / rowHeightUm(settings));
  const columns = Math.floor(settings.outerRadiusUm / gridPitchUm(settings)) + 1;
  const spots: GridSpot[] = [];
  for (let j = -rows; j <= rows; j++) {
    for (let i = -columns; i <= columns; i++) {
      const { xUm, yUm } = latticePosition(settings, i, j);
      if (!withinRing(settings, xUm, yUm)) continue;
      const { x, y } = toImage(surroundings.frame, retinaPoint(xUm, yUm));
      if (!withinField(surroundings.field, x, y, radiusPx)) continue;
      if (!clearOfZones(surroundings, { x, y, xUm, yUm }, radiusUm)) continue;
      if (spots.length === limit) throw new TooManySpotsError(limit);
      const id = spotId(i, j);
      spots.push({ id, x, y, xUm, yUm, enabled: !disabled.has(id) });
    }
  }
  return spots;
}

/** Ids the user asked to remove that the layout does not have. */
export function unknownSpotIds(spots: readonly GridSpot[], disabledSpotIds: Iterable<number>): number[] {
  const known = new Set(spots.map((spot) => spot.id));
  return [...disabledSpotIds].filter((id) => !known.has(id));
}
