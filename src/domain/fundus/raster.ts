// An image as plain pixels, shared by the synthetic fundus painter and the optic disc / fovea detector.
// Pure data: the server and the scripts decode and encode with sharp, the browser with a canvas.

/** Interleaved 8-bit RGB pixels, row by row from the top-left corner (y points down). */
export interface Raster {
  width: number;
  height: number;
  /** Length width × height × 3. */
  data: Uint8ClampedArray;
}

/** A point in image pixels (origin top-left, y down). */
export interface Point {
  x: number;
  y: number;
}

/** Where the optic disc and the fovea are: the generator's truth or the detector's finding. */
export interface FundusLandmarks {
  opticDisc: { center: Point; radiusPx: number };
  fovea: Point;
}

export function createRaster(width: number, height: number): Raster {
  return { width, height, data: new Uint8ClampedArray(width * height * 3) };
}
