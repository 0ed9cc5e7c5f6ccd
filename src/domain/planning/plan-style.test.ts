import { describe, expect, it } from 'vitest';
import { cssColour, PLAN_STYLE, rgbOf, scaleBarLength, spotFill, zoneLook, type Paint, type ZoneKind } from './plan-style';
import { POWER_COLOURS } from './power-colours';

/** Every exclusion zone kind: a kind added to the plan's zones and not here fails the type check. */
const ZONE_KINDS = Object.keys({ FAZ: true, ONH: true } satisfies Record<ZoneKind, true>) as ZoneKind[];

const isPaint = (value: unknown): value is Paint => typeof value === 'object' && value !== null && 'colour' in value && 'alpha' in value;

/** Every paint and every length (a key ending in `Px`) of the style, with its path. */
function walk(node: unknown, path: string, paints: [string, Paint][], lengths: [string, number][]) {
  if (isPaint(node)) {
    paints.push([path, node]);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    const at = path ? `${path}.${key}` : key;
    if (key.endsWith('Px')) {
      for (const length of typeof value === 'number' ? [value] : Object.values(value as object)) lengths.push([at, length as number]);
    } else walk(value, at, paints, lengths);
  }
}

/** WCAG's relative luminance and contrast ratio. */
const luminance = (colour: string) => {
  const [r, g, b] = rgbOf(colour).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
/** A paint laid over an opaque colour, as the eye gets it. */
const over = (paint: Paint, below: string) => {
  const top = rgbOf(paint.colour);
  const bottom = rgbOf(below);
  return `#${top.map((c, k) => Math.round(c * paint.alpha + bottom[k] * (1 - paint.alpha)).toString(16).padStart(2, '0')).join('')}`;
};
const distance = (a: string, b: string) => Math.hypot(...rgbOf(a).map((c, k) => c - rgbOf(b)[k]));

describe('the plan style', () => {
  const paints: [string, Paint][] = [];
  const lengths: [string, number][] = [];
  walk(PLAN_STYLE, '', paints, lengths);

  it('gives every zone kind a stroke and a translucent fill of its own colour, and a line', () => {
    expect(ZONE_KINDS).toEqual(Object.keys(PLAN_STYLE.zones));
    for (const kind of ZONE_KINDS) {
      const zone = PLAN_STYLE.zones[kind];
      expect(zone.stroke.alpha, kind).toBe(1);
      expect(zone.fill.colour, kind).toBe(zone.stroke.colour);
      expect(zone.fill.alpha, kind).toBeGreaterThan(0);
      expect(zone.fill.alpha, kind).toBeLessThan(0.5);
      expect(zone.widthPx, kind).toBeGreaterThan(0);
    }
    expect(PLAN_STYLE.zones.FAZ.stroke.colour).not.toBe(PLAN_STYLE.zones.ONH.stroke.colour);
  });

  it('has only #rrggbb colours with an opacity in (0, 1], and only positive lengths', () => {
    expect(paints.length).toBeGreaterThan(20);
    for (const [path, paint] of paints) {
      expect(paint.colour, path).toMatch(/^#[0-9a-f]{6}$/);
      expect(paint.alpha, path).toBeGreaterThan(0);
      expect(paint.alpha, path).toBeLessThanOrEqual(1);
    }
    expect(lengths.map(([path]) => path)).toEqual(expect.arrayContaining(['zones.FAZ.widthPx', 'ring.dashPx', 'fovea.armPx', 'scaleBar.maxLengthPx', 'labels.scaleBarPx', 'labels.markPx']));
    for (const [path, length] of lengths) expect(length, path).toBeGreaterThan(0);
  });

  it('fills spots in the power colours, opaque, and a spot without a power class translucent', () => {
    POWER_COLOURS.forEach((colour, k) => expect(spotFill(k)).toEqual({ colour, alpha: 1 }));
    expect(spotFill(-1)).toBe(PLAN_STYLE.spots.unpowered);
    expect(spotFill(-1).alpha).toBeLessThan(1);
  });

  it('keeps the zones and the earlier treatment apart from every power colour and from each other', () => {
    const own = [...ZONE_KINDS.map((kind) => PLAN_STYLE.zones[kind].stroke.colour), PLAN_STYLE.previous.stroke.colour];
    for (const colour of own) for (const power of POWER_COLOURS) expect(distance(colour, power), `${colour} / ${power}`).toBeGreaterThan(50);
    for (const [i, a] of own.entries()) for (const b of own.slice(i + 1)) expect(distance(a, b), `${a} / ${b}`).toBeGreaterThan(50);
  });

  it('draws what the report shows on its dark legend tiles at 3:1 against them', () => {
    const backdrop = PLAN_STYLE.backdrop.fill.colour;
    const onTiles = [
      ...ZONE_KINDS.map((kind) => PLAN_STYLE.zones[kind].stroke),
      PLAN_STYLE.ring.paint,
      PLAN_STYLE.fovea.paint,
      PLAN_STYLE.disc.paint,
      PLAN_STYLE.spots.removed.paint,
      PLAN_STYLE.marks.shape.stroke,
      PLAN_STYLE.backdrop.text,
    ];
    for (const paint of onTiles) expect(contrast(over(paint, backdrop), backdrop), paint.colour).toBeGreaterThanOrEqual(3);
    // The report's mark tags: dark text on the marks' colour.
    expect(contrast(PLAN_STYLE.marks.text.tagText.colour, PLAN_STYLE.marks.shape.stroke.colour)).toBeGreaterThanOrEqual(4.5);
  });

  it('derives a zone’s hover and selected look from the zone: its colours, a stronger inside, a wider line when selected', () => {
    for (const kind of ZONE_KINDS) {
      const idle = zoneLook(kind);
      expect(idle).toEqual(PLAN_STYLE.zones[kind]);
      for (const state of ['hover', 'selected'] as const) {
        const look = zoneLook(kind, state);
        expect(look.stroke).toEqual(idle.stroke);
        expect(look.fill.colour).toBe(idle.fill.colour);
        expect(look.fill.alpha).toBeGreaterThan(idle.fill.alpha);
        expect(look.fill.alpha).toBeLessThan(1);
      }
      expect(zoneLook(kind, 'hover').widthPx).toBe(idle.widthPx);
      expect(zoneLook(kind, 'selected').widthPx).toBeGreaterThan(idle.widthPx);
    }
  });

  it('writes a paint as Canvas and CSS take it', () => {
    expect(cssColour({ colour: '#ff5c5c', alpha: 1 })).toBe('#ff5c5c');
    expect(cssColour({ colour: '#ff5c5c', alpha: 0.18 })).toBe('rgba(255, 92, 92, 0.18)');
    expect(rgbOf('#40E0FF')).toEqual([64, 224, 255]);
    expect(() => rgbOf('red')).toThrow(RangeError);
  });

  it('picks the longest round scale bar length that fits its limit and a quarter of the image shown', () => {
    expect(scaleBarLength(0.1)).toEqual({ um: 1000, px: 100 });
    expect(scaleBarLength(1).um).toBe(100);
    expect(scaleBarLength(0.01).um).toBe(5000);
    // 140 px would take 2000 µm; a 400 px wide image allows 100 px, a 300 px one 75 px.
    expect(scaleBarLength(0.07).um).toBe(2000);
    expect(scaleBarLength(0.07, 400).um).toBe(1000);
    expect(scaleBarLength(0.1, 300)).toEqual({ um: 500, px: 50 });
    // Too zoomed in for any length: the shortest.
    expect(scaleBarLength(10).um).toBe(50);
  });
});
