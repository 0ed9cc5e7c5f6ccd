/**
 * The shared view of the comparison: zoom and pan of two fundus images kept in step. Pure: the component
 * stores one ViewTransform and renders both images with `cssTransform`.
 *
 * Frames: image pixels (the plan's coordinates) are drawn into a viewport of the image's aspect that is
 * `scale` times enlarged and shifted by (x, y) viewport pixels; (0, 0, 1) shows the whole image.
 */
export type ViewTransform = { scale: number; x: number; y: number };

export const IDENTITY: ViewTransform = { scale: 1, x: 0, y: 0 };
export const MIN_SCALE = 1;
export const MAX_SCALE = 8;
/** One zoom step (buttons, keys, one wheel notch). */
export const ZOOM_STEP = 1.25;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Keeps the enlarged image covering the viewport: no empty border can be panned into view.
 * `width`/`height`: the viewport's size in CSS pixels.
 */
export function bounded(view: ViewTransform, width: number, height: number): ViewTransform {
  const scale = clamp(view.scale, MIN_SCALE, MAX_SCALE);
  return {
    scale,
    x: clamp(view.x, width * (1 - scale), 0),
    y: clamp(view.y, height * (1 - scale), 0),
  };
}

/** Zooms by `factor` about the viewport point (px, py), which stays where it is on screen. */
export function zoomAbout(view: ViewTransform, factor: number, px: number, py: number, width: number, height: number): ViewTransform {
  const scale = clamp(view.scale * factor, MIN_SCALE, MAX_SCALE);
  const applied = scale / view.scale;
  return bounded({ scale, x: px - (px - view.x) * applied, y: py - (py - view.y) * applied }, width, height);
}

export function panBy(view: ViewTransform, dx: number, dy: number, width: number, height: number): ViewTransform {
  return bounded({ ...view, x: view.x + dx, y: view.y + dy }, width, height);
}

/** CSS for the layer that holds image and overlay (transform-origin 0 0). */
export function cssTransform(view: ViewTransform): string {
  return `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
}

export type ViewportPoint = { x: number; y: number };
export type PointerPair = readonly [ViewportPoint, ViewportPoint];

const distance = ([a, b]: PointerPair) => Math.hypot(b.x - a.x, b.y - a.y);
const middle = ([a, b]: PointerPair): ViewportPoint => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/**
 * Two fingers moved from `before` to `after`: the view zooms by the change of their distance about their
 * midpoint, and follows the midpoint's move, so the image point between the fingers stays between them.
 */
export function pinch(view: ViewTransform, before: PointerPair, after: PointerPair, width: number, height: number): ViewTransform {
  const from = middle(before);
  const to = middle(after);
  const spread = distance(before);
  const factor = spread > 0 ? distance(after) / spread : 1;
  return panBy(zoomAbout(view, factor, from.x, from.y, width, height), to.x - from.x, to.y - from.y, width, height);
}

/** Pixels of wheel travel that make one zoom step (a mouse notch is about 100; a trackpad sends many small ones). */
const WHEEL_STEP_PX = 100;
const LINE_PX = 16;
const PAGE_PX = 800;

/**
 * The zoom factor of one wheel event: in proportion to how far the wheel moved (`deltaMode` as in the DOM:
 * 0 pixels, 1 lines, 2 pages), so a trackpad's stream of small deltas zooms as smoothly as a mouse's notches,
 * and at most two steps at once. Rolling away from the user (negative delta) zooms in.
 */
export function wheelZoomFactor(deltaY: number, deltaMode = 0): number {
  const px = deltaY * (deltaMode === 1 ? LINE_PX : deltaMode === 2 ? PAGE_PX : 1);
  const steps = clamp(-px / WHEEL_STEP_PX, -2, 2);
  return ZOOM_STEP ** steps;
}
