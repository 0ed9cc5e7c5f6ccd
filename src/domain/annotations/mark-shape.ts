// The shapes of the marks physicians and nurses place on a fundus image (issue 17): a point, a line (the
// ruler, two ends), a circle (centre and radius) and a polygon (3–100 vertices). All in pixels of the image's
// display version, as the contract's PixelPoint: origin at the top-left corner, y down. A mark is stored as
// drawn; its figures in µm and mm² are derived from the plan's scale when read (measure.ts).
import { type Pixels, px } from '../planning/frames';

export interface MarkPoint {
  readonly x: number;
  readonly y: number;
}

export type MarkShape =
  | { readonly kind: 'point'; readonly at: MarkPoint }
  | { readonly kind: 'line'; readonly start: MarkPoint; readonly end: MarkPoint }
  | { readonly kind: 'circle'; readonly center: MarkPoint; readonly radiusPx: number }
  | { readonly kind: 'polygon'; readonly points: MarkPoint[] };

export type MarkKind = MarkShape['kind'];

export const MARK_KINDS: readonly MarkKind[] = ['point', 'line', 'circle', 'polygon'];
export const POLYGON_MIN_VERTICES = 3;
export const POLYGON_MAX_VERTICES = 100;

/** The size of the image the mark is drawn on (its display version). */
export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

/** Why a shape is refused; the server answers these as codes, with the field they are about. */
export type MarkProblemCode =
  | 'annotation.not_finite'
  | 'annotation.outside_image'
  | 'annotation.line_degenerate'
  | 'annotation.circle_degenerate'
  | 'annotation.polygon_vertex_count'
  | 'annotation.polygon_degenerate'
  | 'annotation.polygon_self_intersecting';

export interface MarkProblem {
  readonly code: MarkProblemCode;
  /** The field of the shape it is about, as the contract names it (`shape.points.3`, `shape.radiusPx`). */
  readonly field: string;
}

const isFinitePoint = (point: MarkPoint) => Number.isFinite(point.x) && Number.isFinite(point.y);
const onImage = (point: MarkPoint, size: ImageSize) => point.x >= 0 && point.y >= 0 && point.x <= size.width && point.y <= size.height;

/** The points that define a shape, each with its field name. */
function pointsOf(shape: MarkShape): [MarkPoint, string][] {
  switch (shape.kind) {
    case 'point':
      return [[shape.at, 'shape.at']];
    case 'line':
      return [
        [shape.start, 'shape.start'],
        [shape.end, 'shape.end'],
      ];
    case 'circle':
      return [[shape.center, 'shape.center']];
    case 'polygon':
      return shape.points.map((point, index) => [point, `shape.points.${index}`]);
  }
}

/** Twice the signed area (shoelace), taken relative to the first vertex so large coordinates lose no precision. */
function doubleSignedArea(points: readonly MarkPoint[]): number {
  if (points.length < 3) return 0;
  const origin = points[0];
  let sum = 0;
  for (let i = 1; i < points.length - 1; i += 1) {
    const a = points[i];
    const b = points[i + 1];
    sum += (a.x - origin.x) * (b.y - origin.y) - (b.x - origin.x) * (a.y - origin.y);
  }
  return sum;
}

/** The area enclosed by a polygon in px² (shoelace; 0 below three vertices). */
export const polygonAreaPx = (points: readonly MarkPoint[]): number => Math.abs(doubleSignedArea(points)) / 2;

/** The closed outline's length in px (the last vertex joins the first). */
export function polygonPerimeterPx(points: readonly MarkPoint[]): Pixels {
  if (points.length < 2) return px(0);
  let sum = 0;
  for (let i = 0; i < points.length; i += 1) {
    const a = points[i];
    const b = points[(i + 1) % points.length];
    sum += Math.hypot(b.x - a.x, b.y - a.y);
  }
  return px(sum);
}

export const distancePx = (a: MarkPoint, b: MarkPoint): Pixels => px(Math.hypot(b.x - a.x, b.y - a.y));

const orient = (a: MarkPoint, b: MarkPoint, c: MarkPoint) => (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
const within = (a: MarkPoint, b: MarkPoint, c: MarkPoint) =>
  Math.min(a.x, b.x) <= c.x && c.x <= Math.max(a.x, b.x) && Math.min(a.y, b.y) <= c.y && c.y <= Math.max(a.y, b.y);

/** Whether segments ab and cd share a point (touching and collinear overlap included). */
export function segmentsIntersect(a: MarkPoint, b: MarkPoint, c: MarkPoint, d: MarkPoint): boolean {
  const d1 = orient(c, d, a);
  const d2 = orient(c, d, b);
  const d3 = orient(a, b, c);
  const d4 = orient(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 === 0 && within(c, d, a)) || (d2 === 0 && within(c, d, b)) || (d3 === 0 && within(a, b, c)) || (d4 === 0 && within(a, b, d));
}

/**
 * Whether a polygon's outline crosses or touches itself: any two edges that are not neighbours share a point,
 * or two neighbours fold back onto each other. O(n²), n ≤ 100.
 */
export function polygonSelfIntersects(points: readonly MarkPoint[]): boolean {
  const n = points.length;
  for (let i = 0; i < n; i += 1) {
    const a = points[i];
    const b = points[(i + 1) % n];
    for (let j = i + 1; j < n; j += 1) {
      const c = points[j];
      const d = points[(j + 1) % n];
      if (j === i + 1 || (i === 0 && j === n - 1)) {
        // Neighbours share one vertex; they may only overlap if the outline turns back on itself there.
        const [shared, before, after] = j === i + 1 ? [b, a, d] : [a, b, c];
        const dot = (before.x - shared.x) * (after.x - shared.x) + (before.y - shared.y) * (after.y - shared.y);
        if (orient(before, shared, after) === 0 && dot > 0) return true;
      } else if (segmentsIntersect(a, b, c, d)) {
        return true;
      }
    }
  }
  return false;
}

/** Whether every vertex lies on one line, up to rounding (a billionth of the polygon's extent). */
function allOnOneLine(points: readonly MarkPoint[]): boolean {
  const first = points[0];
  let far = first;
  for (const point of points) if (distancePx(first, point) > distancePx(first, far)) far = point;
  const extent = distancePx(first, far);
  if (extent === 0) return true;
  return points.every((point) => Math.abs(orient(first, far, point)) / extent <= 1e-9 * extent);
}

/**
 * Checks a shape on an image of the given size: every number finite, the whole shape on the image (a circle
 * with all of its disc), a line of some length, a circle of some radius, a polygon of 3–100 vertices that
 * encloses an area and does not cross itself. The first problem found, or null.
 */
export function checkMarkShape(shape: MarkShape, size: ImageSize): MarkProblem | null {
  const points = pointsOf(shape);
  for (const [point, field] of points) if (!isFinitePoint(point)) return { code: 'annotation.not_finite', field };
  if (shape.kind === 'circle' && !(Number.isFinite(shape.radiusPx) && shape.radiusPx > 0)) {
    return { code: Number.isFinite(shape.radiusPx) ? 'annotation.circle_degenerate' : 'annotation.not_finite', field: 'shape.radiusPx' };
  }
  if (shape.kind === 'polygon' && (shape.points.length < POLYGON_MIN_VERTICES || shape.points.length > POLYGON_MAX_VERTICES)) {
    return { code: 'annotation.polygon_vertex_count', field: 'shape.points' };
  }
  for (const [point, field] of points) if (!onImage(point, size)) return { code: 'annotation.outside_image', field };
  switch (shape.kind) {
    case 'point':
      return null;
    case 'line':
      return distancePx(shape.start, shape.end) > 0 ? null : { code: 'annotation.line_degenerate', field: 'shape.end' };
    case 'circle': {
      const { center, radiusPx } = shape;
      const inside = center.x - radiusPx >= 0 && center.y - radiusPx >= 0 && center.x + radiusPx <= size.width && center.y + radiusPx <= size.height;
      return inside ? null : { code: 'annotation.outside_image', field: 'shape.radiusPx' };
    }
    case 'polygon': {
      const vertices = shape.points;
      for (let i = 0; i < vertices.length; i += 1) {
        const next = vertices[(i + 1) % vertices.length];
        if (next.x === vertices[i].x && next.y === vertices[i].y) return { code: 'annotation.polygon_degenerate', field: `shape.points.${(i + 1) % vertices.length}` };
      }
      // Vertices on one line enclose nothing (whatever order they come in); otherwise a crossing outline is the
      // problem, and a simple outline encloses an area.
      if (allOnOneLine(vertices)) return { code: 'annotation.polygon_degenerate', field: 'shape.points' };
      if (polygonSelfIntersects(vertices)) return { code: 'annotation.polygon_self_intersecting', field: 'shape.points' };
      const perimeter = polygonPerimeterPx(vertices);
      return polygonAreaPx(vertices) > 1e-9 * perimeter * perimeter ? null : { code: 'annotation.polygon_degenerate', field: 'shape.points' };
    }
  }
}
