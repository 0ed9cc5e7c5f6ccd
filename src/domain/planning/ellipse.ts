// Distances to a filled ellipse, for "does this spot touch that zone". No geometry package on npm does
// point-to-ellipse distance robustly and small (see docs/architecture.md): this is D. Eberly's bisection
// ("Distance from a Point to an Ellipse, an Ellipsoid, or a Hyperellipsoid", Geometric Tools, 2013),
// which converges for every input, including points near the axes where Newton's method fails.

export interface Ellipse {
  /** Centre, in the frame of the caller (any unit, y up or down alike). */
  cx: number;
  cy: number;
  /** Semi-axes, > 0. */
  rx: number;
  ry: number;
  /** Angle of the rx axis from the frame's x axis towards its y axis, radians. */
  rotation: number;
}

/** Largest number of bisection steps: a double has 1,074 halvings between its extremes; ~60 are typical. */
const MAX_STEPS = 1100;

/**
 * Distance from (y0, y1), both ≥ 0 and outside, to the axis-aligned ellipse with semi-axes e0 ≥ e1 > 0: the
 * root s of F(s) = (r0·z0/(s+r0))² + (z1/(s+1))² − 1, which decreases, by bisection (Eberly's GetRoot, 2-D),
 * then the nearest point (r0·y0/(s+r0), y1/(s+1)). A point on an axis needs no case of its own when it lies
 * outside (Eberly's special cases are for points inside, which never get here).
 */
function quadrantDistance(e0: number, e1: number, y0: number, y1: number): number {
  const z0 = y0 / e0;
  const z1 = y1 / e1;
  const r0 = (e0 / e1) ** 2;
  const n0 = r0 * z0;
  // F(z1 − 1) ≥ 0 and F(|(n0, z1)| − 1) ≤ 0 for a point outside: the root lies between.
  let s0 = z1 - 1;
  // Stryker disable next-line ArithmeticOperator: any upper end above the root brackets it (+ 1 as well as − 1).
  let s1 = Math.hypot(n0, z1) - 1;
  let s = s0;
  // Stryker disable next-line EqualityOperator,UpdateOperator: the bisection ends by converging; the bound only guards NaN.
  for (let step = 0; step < MAX_STEPS; step++) {
    s = (s0 + s1) / 2;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: converged; without it the same s is kept to MAX_STEPS.
    if (s === s0 || s === s1) break;
    const ratio0 = n0 / (s + r0);
    const ratio1 = z1 / (s + 1);
    // Stryker disable next-line EqualityOperator: F(s) = 0 exactly is the root; either side keeps converging on it.
    if (ratio0 * ratio0 + ratio1 * ratio1 > 1) s0 = s;
    else s1 = s;
  }
  return Math.hypot((r0 * y0) / (s + r0) - y0, y1 / (s + 1) - y1);
}

/** The point in the ellipse's own axes (centred, unrotated). */
function local(ellipse: Ellipse, x: number, y: number): [number, number] {
  const dx = x - ellipse.cx;
  const dy = y - ellipse.cy;
  const cos = Math.cos(ellipse.rotation);
  const sin = Math.sin(ellipse.rotation);
  return [dx * cos + dy * sin, -dx * sin + dy * cos];
}

/** True when (x, y) lies inside the ellipse or on its edge. */
export function insideEllipse(ellipse: Ellipse, x: number, y: number): boolean {
  const [u, v] = local(ellipse, x, y);
  return (u / ellipse.rx) ** 2 + (v / ellipse.ry) ** 2 <= 1;
}

/** Distance from (x, y) to the filled ellipse: 0 inside or on the edge. */
export function distanceToEllipse(ellipse: Ellipse, x: number, y: number): number {
  const [u, v] = local(ellipse, x, y);
  const a = Math.abs(u);
  const b = Math.abs(v);
  // Stryker disable next-line EqualityOperator: on the edge itself the distance computed is 0 as well.
  if ((a / ellipse.rx) ** 2 + (b / ellipse.ry) ** 2 <= 1) return 0;
  // Stryker disable next-line EqualityOperator: a circle is measured the same either way round.
  return ellipse.rx >= ellipse.ry ? quadrantDistance(ellipse.rx, ellipse.ry, a, b) : quadrantDistance(ellipse.ry, ellipse.rx, b, a);
}

/**
 * True when a disc of `radius` around (x, y) reaches the filled ellipse (touching counts). Cheap bounds
 * first: most spots are far away or deep inside.
 */
export function discTouchesEllipse(ellipse: Ellipse, x: number, y: number, radius: number): boolean {
  // Squared distances (Math.hypot is several times slower, and this runs for every spot and zone).
  const dx = x - ellipse.cx;
  const dy = y - ellipse.cy;
  const squared = dx * dx + dy * dy;
  const outer = Math.max(ellipse.rx, ellipse.ry) + radius;
  if (squared > outer * outer) return false;
  // Stryker disable next-line ArithmeticOperator: a smaller inner bound only sends more spots to the exact distance.
  const inner = Math.min(ellipse.rx, ellipse.ry) + radius;
  // Stryker disable next-line EqualityOperator,ArithmeticOperator: as above; a bound this side of the exact one changes no answer.
  if (squared <= inner * inner) return true;
  // Stryker disable next-line EqualityOperator: a spot whose distance equals its radius exactly exists only up to rounding.
  return distanceToEllipse(ellipse, x, y) <= radius;
}

/** Points on the ellipse's edge, evenly spaced in its parameter. */
export function ellipseOutline(ellipse: Ellipse, count: number): { x: number; y: number }[] {
  const cos = Math.cos(ellipse.rotation);
  const sin = Math.sin(ellipse.rotation);
  return Array.from({ length: count }, (_, k) => {
    const t = (2 * Math.PI * k) / count;
    const u = ellipse.rx * Math.cos(t);
    const v = ellipse.ry * Math.sin(t);
    return { x: ellipse.cx + u * cos - v * sin, y: ellipse.cy + u * sin + v * cos };
  });
}
