// The two frames a plan lives in, kept apart by the type system:
// - image pixels of the session's display image: origin at the top-left corner, y down, continuous (pixel
//   (i, j) covers [i, i + 1) × [j, j + 1)), as the contract's PixelPoint says;
// - micrometres on the retina relative to the fovea: x to the right of the image, y up.
// Geometry is stored in the unit it was made in (zones as drawn, in pixels; the grid in µm around the
// fovea) and converted only through a RetinaFrame, here and nowhere else.

declare const pixelUnit: unique symbol;
declare const micrometreUnit: unique symbol;

/** A length or coordinate in image pixels. */
export type Pixels = number & { readonly [pixelUnit]: true };
/** A length or coordinate in micrometres on the retina. */
export type Micrometres = number & { readonly [micrometreUnit]: true };

export const px = (value: number) => value as Pixels;
export const um = (value: number) => value as Micrometres;

export interface ImagePoint {
  readonly x: Pixels;
  readonly y: Pixels;
}

export interface RetinaPoint {
  readonly xUm: Micrometres;
  readonly yUm: Micrometres;
}

export const imagePoint = (x: number, y: number): ImagePoint => ({ x: px(x), y: px(y) });
export const retinaPoint = (xUm: number, yUm: number): RetinaPoint => ({ xUm: um(xUm), yUm: um(yUm) });

/** Where the retina frame sits on the image: the fovea's pixel and the plan's scale. */
export interface RetinaFrame {
  readonly fovea: ImagePoint;
  /** Micrometres on the retina per image pixel (the plan's scale), > 0. */
  readonly umPerPixel: number;
}

export function retinaFrame(fovea: { x: number; y: number }, umPerPixel: number): RetinaFrame {
  if (!(umPerPixel > 0) || !Number.isFinite(umPerPixel)) throw new RangeError(`umPerPixel must be a positive number, not ${umPerPixel}`);
  return { fovea: imagePoint(fovea.x, fovea.y), umPerPixel };
}

export function toRetina(frame: RetinaFrame, point: ImagePoint): RetinaPoint {
  return retinaPoint((point.x - frame.fovea.x) * frame.umPerPixel, (frame.fovea.y - point.y) * frame.umPerPixel);
}

export function toImage(frame: RetinaFrame, point: RetinaPoint): ImagePoint {
  return imagePoint(frame.fovea.x + point.xUm / frame.umPerPixel, frame.fovea.y - point.yUm / frame.umPerPixel);
}

export const lengthToUm = (frame: RetinaFrame, length: Pixels): Micrometres => um(length * frame.umPerPixel);
export const lengthToPx = (frame: RetinaFrame, length: Micrometres): Pixels => px(length / frame.umPerPixel);

/**
 * A rotation measured on the image (clockwise on screen, y down) as seen in the retina frame (y up), where
 * the same turn is counter-clockwise: the sign flips.
 */
export const rotationToRetina = (rotationDeg: number) => -rotationDeg;
