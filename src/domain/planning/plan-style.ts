// How a plan looks wherever it is drawn: the planning canvas (Konva), the session comparison and the earlier
// treatment (SVG), and the treatment report (PDF) take their colours, line widths, dashes, the scale bar and the
// label sizes from here, so that a plan looks the same on every screen and on paper.
//
// One unit: CSS pixels at 1:1 (1/96 inch). Each renderer scales them: the canvas and the SVGs divide by their
// zoom (image pixels per screen pixel), so a line keeps its width on the screen at any zoom; the PDF multiplies
// by PT_PER_PX, so the printed plan's lines and labels look as heavy at reading distance as on the screen.
//
// The colours are those the planner showed before the three drawings were made one. Measured (WCAG contrast,
// 21 GAMMA fundus photos, the FAZ's edge 0.04 image widths around the expert's fovea; white paper): the FAZ's
// #ff5c5c is 2.31 on the fundus (median) against 1.79 for the report's former #e5484d, and 3.03 on paper, so
// the screen's red stays and the report takes it; the ONH's #ffb020 beats the report's former #f0a020 around
// the disc (2.23 against 1.89) but is 1.83 on paper, as every light plan colour is: the report draws its
// legend's swatches on the dark backdrop of the image, never on the bare page.
import type { NptExclusionZoneKind } from '../npt/manifest';
import { POWER_COLOURS } from './power-colours';

/** A colour (`#rrggbb`) and its opacity, 0–1: what Canvas, SVG and PDF each take in their own way. */
export interface Paint {
  readonly colour: string;
  readonly alpha: number;
}

/** A line: its paint, its width and its dash (on, off), CSS px. */
export interface Line {
  readonly paint: Paint;
  readonly widthPx: number;
  readonly dashPx?: readonly [number, number];
}

/** A closed shape: its outline and its translucent inside. */
export interface Area {
  readonly stroke: Paint;
  readonly fill: Paint;
  readonly widthPx: number;
}

export type ZoneKind = NptExclusionZoneKind;

const solid = (colour: string): Paint => ({ colour, alpha: 1 });
const tint = (colour: string, alpha: number): Paint => ({ colour, alpha });

/**
 * CSS pixels to PDF points. A CSS px is 0.75 pt on paper, but paper is read at about 35 cm and a screen at about
 * 60 cm: at 0.75 pt the report's spots of a few points drowned in their outlines and a removed spot's cross filled
 * its ring. 0.55 pt gives the plan on paper the weight it has on the screen.
 */
export const PT_PER_PX = 0.55;

export const PLAN_STYLE = {
  /** Behind the image where there is none (the report without its image, the report's legend tiles), and text on it. */
  backdrop: { fill: solid('#1c2127'), text: solid('#ffffff') },
  /** The exclusion zones: no laser spot may touch them. Red and amber: no power colour is either. */
  zones: {
    FAZ: { stroke: solid('#ff5c5c'), fill: tint('#ff5c5c', 0.18), widthPx: 2 },
    ONH: { stroke: solid('#ffb020'), fill: tint('#ffb020', 0.18), widthPx: 2 },
  } satisfies Record<ZoneKind, Area>,
  /** An editable zone under the pointer or selected (the canvas): its inside darker, selected its line wider. */
  zoneStates: { hoverFillAlpha: 0.3, selectedWidthPx: 3 },
  /** The handles that resize and turn the selected zone (the canvas's transformer). */
  handles: { stroke: solid('#ffffff'), fill: solid('#215db0'), sizePx: 12, borderDashPx: [4, 4] as const, rotateOffsetPx: 28 },
  /** The grid's ring around the fovea: inner and outer radius. */
  ring: { paint: tint('#ffffff', 0.7), widthPx: 1.5, dashPx: [6, 4] as const } satisfies Line,
  /** The fovea's cross, arms `armPx` long, and the detected disc's outline. */
  fovea: { paint: solid('#ffffff'), widthPx: 2, armPx: 9 },
  disc: { paint: tint('#ffffff', 0.8), widthPx: 2, dashPx: [3, 3] as const } satisfies Line,
  spots: {
    /** Before the brightness step gives each spot its power class. */
    unpowered: tint('#40e0ff', 0.55),
    /** The power classes, least power first (power-colours.ts). */
    powered: POWER_COLOURS,
    outline: { paint: tint('#000000', 0.6), widthPx: 1 } satisfies Line,
    /** A spot taken out of the plan: a hollow ring with a cross `crossFraction` of its radius, read without colour. */
    removed: { paint: tint('#ffffff', 0.75), widthPx: 1.5, crossFraction: 0.6 },
    /** The spot the keyboard is on: a ring `gapPx` out from the spot. */
    focus: { paint: solid('#ffffff'), widthPx: 2.5, gapPx: 3 },
  },
  /**
   * Marks around spots (plan-safety.ts), `gapPx` out from the spot so its power colour stays visible, each with
   * a shape of its own as well as a colour no power class, zone or earlier treatment uses: too close to the
   * fovea, a red fill with a white ring; darker than ordinary fundus, a cyan ring; brighter, a dark square.
   */
  spotMarks: {
    gapPx: 2.5,
    nearFovea: { fill: solid('#ff2d2d'), ring: { paint: solid('#ffffff'), widthPx: 1.5 } satisfies Line },
    dark: { paint: solid('#00e5ff'), widthPx: 2 } satisfies Line,
    bright: { paint: solid('#101820'), widthPx: 2 } satisfies Line,
  },
  /**
   * An earlier session's treatment under today's plan: spots outlined with a halo of the registration's
   * uncertainty, zones dashed, today's spots over earlier ones ringed `gapPx` out; a colour of its own.
   */
  previous: {
    stroke: solid('#ff4fd8'),
    halo: tint('#ff4fd8', 0.16),
    widthPx: 1.5,
    zoneDashPx: [5, 4] as const,
    over: { widthPx: 2, gapPx: 2 },
  },
  /** Labels and measurements on the image (the marks): cyan, apart from the zones and the earlier treatment. */
  marks: {
    shape: { stroke: solid('#22d3ee'), fill: tint('#22d3ee', 0.12), widthPx: 2 } satisfies Area,
    /** A point mark: a ring of `radiusPx` with a dot of `dotPx`. */
    point: { radiusPx: 6, dotPx: 1.5 },
    /** The mark being drawn: dashed, its inside lighter; the polygon's first vertex a white ring. */
    draft: { dashPx: [6, 4] as const, fillAlpha: 0.08, vertexPx: 3, firstVertexPx: 5 },
    selected: { stroke: solid('#ffffff'), fill: tint('#ffffff', 0.18), widthPx: 3 } satisfies Area,
    /** Captions: light text with a dark halo (screen); on paper a mark's number on a tag of the mark's colour. */
    text: { paint: solid('#ecfeff'), halo: { paint: tint('#000000', 0.8), widthPx: 3 } satisfies Line, tagText: solid('#1c2127') },
  },
  /**
   * The scale bar, at the image's lower left (`offsetPx` from its edges): a bracket of a round length, at most
   * `maxLengthPx` and never more than `maxWidthFraction` of the image shown, its length written under it, on a
   * translucent dark box.
   */
  scaleBar: {
    lengthsUm: [50, 100, 200, 250, 500, 1000, 2000, 2500, 5000] as const,
    maxLengthPx: 140,
    maxWidthFraction: 0.25,
    paint: solid('#ffffff'),
    background: tint('#000000', 0.55),
    lineWidthPx: 1,
    barHeightPx: 4,
    paddingPx: { x: 6, y: 4 },
    gapPx: 2,
    radiusPx: 3,
    offsetPx: { x: 12, y: 10 },
  },
  /** Text drawn on the image, CSS px. */
  labels: { scaleBarPx: 12, markPx: 13 },
} as const;

/** A paint as Canvas and CSS take it: `#rrggbb` when opaque, else `rgba(r, g, b, a)`. */
export function cssColour(paint: Paint): string {
  if (paint.alpha >= 1) return paint.colour;
  const [r, g, b] = rgbOf(paint.colour);
  return `rgba(${r}, ${g}, ${b}, ${paint.alpha})`;
}

/** The red, green and blue of `#rrggbb`, 0–255. */
export function rgbOf(colour: string): [number, number, number] {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (!match) throw new RangeError(`a plan colour is #rrggbb, not ${colour}`);
  return [parseInt(match[1], 16), parseInt(match[2], 16), parseInt(match[3], 16)];
}

/** The inside of a spot of power class `colourClass` (power-colours.ts), or of a spot without one (−1). */
export function spotFill(colourClass: number): Paint {
  const colour = PLAN_STYLE.spots.powered[colourClass];
  return colour === undefined ? PLAN_STYLE.spots.unpowered : solid(colour);
}

export type ZoneState = 'idle' | 'hover' | 'selected';

/** A zone as drawn in a state of the canvas's editing: the zone's own colours, its inside or line stronger. */
export function zoneLook(kind: ZoneKind, state: ZoneState = 'idle'): Area {
  const zone = PLAN_STYLE.zones[kind];
  if (state === 'idle') return zone;
  const fill = { ...zone.fill, alpha: PLAN_STYLE.zoneStates.hoverFillAlpha };
  return { ...zone, fill, widthPx: state === 'selected' ? PLAN_STYLE.zoneStates.selectedWidthPx : zone.widthPx };
}

/**
 * The scale bar's length: the longest round length (µm) that fits at `pxPerUm` (CSS px per µm on the screen or
 * on paper) into `maxLengthPx` and into `maxWidthFraction` of `shownWidthPx`, the width of the image shown; and
 * its length in px.
 */
export function scaleBarLength(pxPerUm: number, shownWidthPx = Infinity): { um: number; px: number } {
  const { lengthsUm: lengths, maxLengthPx, maxWidthFraction } = PLAN_STYLE.scaleBar;
  const maxPx = Math.min(maxLengthPx, maxWidthFraction * shownWidthPx);
  let chosen: number = lengths[0];
  for (const length of lengths) if (length * pxPerUm <= maxPx) chosen = length;
  return { um: chosen, px: chosen * pxPerUm };
}
