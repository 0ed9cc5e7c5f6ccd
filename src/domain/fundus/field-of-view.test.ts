// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { findFieldOfView } from './field-of-view';
import { createPlane, type Plane } from './image-ops';

/** A lit disc of the given diameter on black, optionally with a nearly black patch inside it. */
function aperture(width: number, height: number, cx: number, cy: number, diameter: number): Plane {
  const plane = createPlane(width, height, 2);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= (diameter / 2) ** 2) plane.data[y * width + x] = 90 + (x % 7);
    }
  }
  return plane;
}

describe('findFieldOfView', () => {
  it('finds a round aperture: its diameter, its centre and a mask inside the eroded rim', () => {
    const plane = aperture(300, 200, 160, 100, 190);
    const field = findFieldOfView(plane);
    expect(field.diameter).not.toBeNull();
    expect(field.diameter).toBeGreaterThan(186);
    expect(field.diameter).toBeLessThan(194);
    expect(field.center.x).toBeCloseTo(159.5, 1);
    expect(field.center.y).toBeCloseTo(99.5, 1);
    expect(field.mask[100 * 300 + 160]).toBe(1);
    expect(field.mask[100 * 300 + 20]).toBe(0);
    // The rim itself is left out.
    expect(field.mask[100 * 300 + 160 + 94]).toBe(0);
  });

  it('keeps a dark region inside the aperture (a dark macula must stay searchable)', () => {
    const plane = aperture(300, 200, 150, 100, 190);
    for (let y = 80; y < 130; y++) for (let x = 70; x < 110; x++) plane.data[y * 300 + x] = 3;
    const field = findFieldOfView(plane);
    expect(field.mask[100 * 300 + 90]).toBe(1);
  });

  it('measures a circle cut at the top and bottom of the frame by its widest row', () => {
    const plane = aperture(400, 240, 200, 120, 300);
    const field = findFieldOfView(plane);
    expect(field.diameter).toBeGreaterThan(295);
    expect(field.diameter).toBeLessThan(305);
    expect(field.center.y).toBeCloseTo(119.5, 1);
  });

  it('gives no diameter when the fundus fills the frame, and masks almost all of it', () => {
    const plane = createPlane(200, 150, 120);
    const field = findFieldOfView(plane);
    expect(field.diameter).toBeNull();
    expect(field.area).toBeGreaterThan(0.85 * 200 * 150);
  });

  it('falls back to the whole frame for a black image', () => {
    const field = findFieldOfView(createPlane(64, 48));
    expect(field.diameter).toBeNull();
    expect(field.area).toBe(64 * 48);
    expect(field.center).toEqual({ x: 31.5, y: 23.5 });
  });
});
