// The plan looks the same in the planner and in the treatment report: the report's drawing commands, read back
// with pdf.js, paint the FAZ in the colours the planning canvas gives its FAZ node, and the other zone and the
// spots in the planner's colours too (src/domain/planning/plan-style.ts). Each shape of the plan is told apart by
// its size in the image's pixels, which no other shape of the page shares. No server: the report's renderer alone.
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import type { Treatment } from '@generated/model/treatment';
import { POWER_COLOURS } from '@/domain/planning/power-colours';
import { zoneAttrs } from '@/features/planning/plan-canvas';
import { renderTreatmentReport } from '../../server/report/treatment-report-pdf';

const fovea = { x: 800, y: 600 };
const zone = (kind: 'FAZ' | 'ONH', center: { x: number; y: number }, radiusPx: number) => ({
  kind,
  center,
  radiusXPx: radiusPx,
  radiusYPx: radiusPx,
  rotationDeg: 0,
  radiusXUm: radiusPx * 5,
  radiusYUm: radiusPx * 5,
});
const spot = (id: number, x: number, powerFactor: number) => ({ id, x, y: fovea.y + 150, xUm: (x - fovea.x) * 5, yUm: -750, brightness: 0.5, powerFactor, powerMw: 100 * powerFactor, enabled: true });

/** A signed-off session with both zones and a spot at the lowest and the highest power; only what the report reads. */
const treatment = {
  id: '00000000-0000-4000-8000-000000000028',
  number: 1,
  date: '2026-11-18',
  eye: 'OD',
  locked: false,
  issueReport: null,
  deviceId: null,
  spotSizeUm: 100,
  spotSpacing: 2.5,
  pulseDurationMs: 20,
  laserMode: 'continuous',
  laserDose: 100,
  plan: {
    scale: { umPerPixel: 5, source: 'manifest' },
    fovea,
    opticDisc: { center: { x: 300, y: 550 }, radiusPx: 180 },
    imagedField: { width: 1600, height: 1200 },
    exclusionZones: { faz: zone('FAZ', fovea, 90), onh: zone('ONH', { x: 300, y: 550 }, 260) },
    gridSettings: { pattern: 'hexagonal', innerRadiusUm: 500, outerRadiusUm: 3000, spotSizeUm: 100, spotSpacing: 2.5 },
    spots: [spot(1, 700, 0.8), spot(2, 900, 1.2)],
    brightness: { medianBrightness: 0.5, minFactor: 0.8, maxFactor: 1.2, gamma: 0.5, excludedSpots: 0 },
    signOff: { at: '2026-11-18T14:05:00Z', by: { id: '00000000-0000-4000-8000-000000000001', name: 'Anna Keller' } },
    parameterSet: { fileName: 'plan.npt', size: 1234, sha256: 'ab'.repeat(32) },
  },
} as unknown as Treatment;

/** A path painted on the page: its size in the units it was drawn in, and its fill and stroke (`#rrggbb@alpha`). */
interface Painted {
  width: number;
  height: number;
  fill: string | null;
  stroke: string | null;
}

/** Every path painted on page 1, with the colours and opacities in force when it was. */
async function paintedPaths(pdf: Buffer): Promise<Painted[]> {
  const document = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
  try {
    const ops = await (await document.getPage(1)).getOperatorList();
    const painted: Painted[] = [];
    let fill = '#000000';
    let stroke = '#000000';
    const alpha = { ca: 1, CA: 1 };
    const stack: { fill: string; stroke: string; ca: number; CA: number }[] = [];
    const filling: number[] = [OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke];
    const stroking: number[] = [OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke];
    ops.fnArray.forEach((fn, index) => {
      const args = ops.argsArray[index] as unknown[];
      switch (fn) {
        case OPS.setFillRGBColor:
          fill = String(args[0]);
          break;
        case OPS.setStrokeRGBColor:
          stroke = String(args[0]);
          break;
        case OPS.setGState:
          for (const [key, value] of args[0] as [string, unknown][]) if (key === 'ca' || key === 'CA') alpha[key] = Number(value);
          break;
        case OPS.save:
          stack.push({ fill, stroke, ...alpha });
          break;
        case OPS.restore: {
          const saved = stack.pop();
          if (saved) ({ fill, stroke, ca: alpha.ca, CA: alpha.CA } = saved);
          break;
        }
        case OPS.constructPath: {
          // pdf.js folds a path and its painting into one operation: the painting, the path, its bounds.
          const [how, , bounds] = args as [number, unknown, ArrayLike<number>];
          painted.push({
            width: bounds[2] - bounds[0],
            height: bounds[3] - bounds[1],
            fill: filling.includes(how) ? `${fill}@${alpha.ca}` : null,
            stroke: stroking.includes(how) ? `${stroke}@${alpha.CA}` : null,
          });
          break;
        }
      }
    });
    return painted;
  } finally {
    await document.destroy();
  }
}

/** A canvas colour (`#rrggbb` or `rgba(r, g, b, a)`) as `#rrggbb@alpha`. */
function paintOf(css: string): string {
  if (css.startsWith('#')) return `${css}@1`;
  const [r, g, b, a] = css.match(/[\d.]+/g)!.map(Number);
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}@${a}`;
}

describe('the plan in the planner and in the report', () => {
  it('paints the FAZ, the ONH and the spots in the canvas’s colours', async () => {
    const pdf = await renderTreatmentReport({
      lang: 'en',
      timeZone: 'UTC',
      clinicName: 'Augenklinik Süd',
      patient: { name: 'Zoë', secondName: 'Keller', birthday: '1950-02-03', gender: 'female', deviceId: null },
      treatment,
      image: null,
      marks: [],
      delivery: null,
    });
    const painted = await paintedPaths(pdf);
    /** The paths of a circle or an upright ellipse of these radii in image pixels: the plan's shapes, drawn in them. */
    const sized = (radiusX: number, radiusY = radiusX) => painted.filter((path) => Math.abs(path.width - 2 * radiusX) < 0.01 && Math.abs(path.height - 2 * radiusY) < 0.01);
    const { faz, onh } = treatment.plan.exclusionZones!;
    for (const [kind, zone] of [['faz', faz], ['onh', onh]] as const) {
      const canvas = zoneAttrs(kind);
      const paths = sized(zone.radiusXPx, zone.radiusYPx);
      expect(paths.map((path) => path.fill).filter(Boolean)).toEqual([paintOf(canvas.fill)]);
      expect(paths.map((path) => path.stroke).filter(Boolean)).toEqual([paintOf(canvas.stroke)]);
    }
    // The canvas's FAZ: red, its inside translucent (the report's former #e5484d is gone).
    expect(zoneAttrs('faz')).toMatchObject({ stroke: '#ff5c5c', fill: 'rgba(255, 92, 92, 0.18)' });
    // The spots (100 µm at 5 µm per pixel) of the lowest and the highest power class, opaque, as the canvas fills them.
    expect(sized(10).map((path) => path.fill)).toEqual(expect.arrayContaining([`${POWER_COLOURS[0]}@1`, `${POWER_COLOURS.at(-1)}@1`]));
  });
});
