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
