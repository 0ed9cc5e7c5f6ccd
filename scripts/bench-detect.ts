/**
 * `npm run bench:detect [-- [--json FILE] [--check]]`: how well and how fast the optic disc and fovea
 * detector (src/domain/fundus/detect-landmarks.ts) works.
 *
 * 1. Generated exams, always: the synthetic fundus painter, seeds 1…50, eye alternating (odd OD, even OS),
 *    1600 × 1200, JPEG-encoded at quality 90 and decoded again with sharp as the server stores and reads
 *    exam images. Detected with the exam's hints (eye and µm per pixel, as the server passes them), and
 *    once more without any hint. Errors against the painter's truth in pixels and in disc diameters
 *    (DD = 2 × true disc radius). Acceptance: the fovea within 0.25 DD in ≥ 95 % of the hinted run.
 * 2. Real photos, when the evaluation folder exists (FUNDUS_DIR, else ../shared/data/fundus beside the
 *    repository): each photo in ground_truth.csv decoded with sharp, downscaled to a longest side of
 *    1600 px as the server does, detected with the CSV's eye as the hint, the result mapped back to the
 *    original pixels and compared with the expert fovea. The photos have no expert disc, so disc errors are
 *    not available and DD is an estimate from the field of view (printed with each run).
 *    The photos are read in place; nothing is copied or written next to them.
 *
 * Plain-text tables on stdout; `--json FILE` writes the figures; `--check` exits 1 when the acceptance fails.
 * Times are wall-clock milliseconds of detectLandmarks alone (decoding excluded), after a few untimed warm-up
 * calls, with the process CPU time beside them (wall time also counts whatever else the machine is doing).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { detectLandmarks, type DetectionOptions, type LandmarkDetection } from '../src/domain/fundus/detect-landmarks';
import { findFieldOfView } from '../src/domain/fundus/field-of-view';
import { downsampleRaster } from '../src/domain/fundus/image-ops';
import type { Raster } from '../src/domain/fundus/raster';
import { paintSyntheticFundus } from '../src/domain/fundus/synthetic-fundus';

const GENERATED = { seeds: 50, width: 1600, height: 1200, jpegQuality: 90 };
/** Acceptance: share of generated exams whose fovea is within 0.25 DD. */
const ACCEPTANCE_SHARE = 0.95;
/** Untimed detections before the first timed one. */
const WARM_UP_RUNS = 6;
/** The server's working copy of an uploaded photo. */
const SERVER_LONGEST_SIDE = 1600;
/** DD estimate for real photos: the field-of-view circle spans ≈ 45° at 288 µm per degree; a disc ≈ 1800 µm. */
const FIELD_UM = 45 * 288;
const DISC_DIAMETER_UM = 1800;

const root = path.resolve(import.meta.dirname, '..');

interface Timing {
  meanMs: number;
  maxMs: number;
  /** Process CPU time per detection: what the detector costs, whatever else the machine is doing. */
  meanCpuMs: number;
}

interface Summary {
  count: number;
  medianDd: number;
  p90Dd: number;
  within025Dd: number;
  within05Dd: number;
}

interface GeneratedRow {
  seed: number;
  eye: 'OD' | 'OS';
  discDiameterPx: number;
  foveaErrorPx: number;
  foveaErrorDd: number;
  discErrorPx: number;
  discErrorDd: number;
  /** (detected − true) / true disc radius. */
  discRadiusError: number;
  confidence: LandmarkDetection['confidence'];
  ms: number;
  cpuMs: number;
}

interface RealRow {
  image: string;
  eye: 'OD' | 'OS';
  width: number;
  height: number;
  discDiameterEstimatePx: number;
  ddEstimate: 'field of view' | 'frame width';
  foveaTruth: { x: number; y: number };
  fovea: { x: number; y: number };
  foveaErrorPx: number;
  foveaErrorDd: number;
  opticDisc: { x: number; y: number; radiusPx: number };
  confidence: LandmarkDetection['confidence'];
  ms: number;
  cpuMs: number;
}

interface GeneratedResult {
  rows: GeneratedRow[];
  fovea: Summary;
  disc: Summary;
  discRadius: { medianAbs: number; p90Abs: number };
  time: Timing;
}

interface RealResult {
  rows: RealRow[];
  fovea: Summary;
  time: Timing;
}

function quantile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = p * (sorted.length - 1);
  const lower = Math.floor(at);
  const upper = Math.ceil(at);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (at - lower);
}

function summarise(errorsDd: number[]): Summary {
  return {
    count: errorsDd.length,
    medianDd: quantile(errorsDd, 0.5),
    p90Dd: quantile(errorsDd, 0.9),
    within025Dd: errorsDd.filter((e) => e <= 0.25).length / Math.max(1, errorsDd.length),
    within05Dd: errorsDd.filter((e) => e <= 0.5).length / Math.max(1, errorsDd.length),
  };
}

const average = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

function timing(rows: Array<{ ms: number; cpuMs: number }>): Timing {
  return {
    meanMs: average(rows.map((r) => r.ms)),
    maxMs: Math.max(0, ...rows.map((r) => r.ms)),
    meanCpuMs: average(rows.map((r) => r.cpuMs)),
  };
}

function timed(raster: Raster, options: DetectionOptions): { detection: LandmarkDetection; ms: number; cpuMs: number } {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const detection = detectLandmarks(raster, options);
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { detection, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function decodeRgb(input: Buffer | string, longestSide?: number): Promise<Raster> {
  let pipeline = sharp(input).removeAlpha().toColourspace('srgb');
  if (longestSide) {
    pipeline = pipeline.resize({
      width: longestSide,
      height: longestSide,
      fit: 'inside',
      withoutEnlargement: true,
    });
  }
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected RGB, got ${info.channels} channels`);
  const pixels = new Uint8ClampedArray(data.buffer, data.byteOffset, data.length);
  return { width: info.width, height: info.height, data: pixels };
}

async function throughJpeg(raster: Raster, quality: number): Promise<Raster> {
  const jpeg = await sharp(Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.length), {
    raw: { width: raster.width, height: raster.height, channels: 3 },
  })
    .jpeg({ quality })
    .toBuffer();
  return decodeRgb(jpeg);
}

const fmt = (v: number, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const pct = (v: number) => `${(100 * v).toFixed(0)} %`;

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

async function benchGenerated(withHints: boolean): Promise<GeneratedResult> {
  const rows: GeneratedRow[] = [];
  for (let seed = 1; seed <= GENERATED.seeds; seed++) {
    const eye = seed % 2 === 1 ? 'OD' : 'OS';
    const exam = paintSyntheticFundus({ width: GENERATED.width, height: GENERATED.height, eye, seed });
    const raster = await throughJpeg(exam.raster, GENERATED.jpegQuality);
    const { detection, ms, cpuMs } = timed(raster, withHints ? { eye, umPerPixel: exam.umPerPixel } : {});
    const truth = exam.truth;
    const dd = 2 * truth.opticDisc.radiusPx;
    const foveaErrorPx = Math.hypot(detection.fovea.x - truth.fovea.x, detection.fovea.y - truth.fovea.y);
    const discErrorPx = Math.hypot(
      detection.opticDisc.center.x - truth.opticDisc.center.x,
      detection.opticDisc.center.y - truth.opticDisc.center.y,
    );
    rows.push({
      seed,
      eye,
      discDiameterPx: dd,
      foveaErrorPx,
      foveaErrorDd: foveaErrorPx / dd,
      discErrorPx,
      discErrorDd: discErrorPx / dd,
      discRadiusError: (detection.opticDisc.radiusPx - truth.opticDisc.radiusPx) / truth.opticDisc.radiusPx,
      confidence: detection.confidence,
      ms,
      cpuMs,
    });
  }
  const radiusErrors = rows.map((r) => Math.abs(r.discRadiusError));
  return {
    rows,
    fovea: summarise(rows.map((r) => r.foveaErrorDd)),
    disc: summarise(rows.map((r) => r.discErrorDd)),
    discRadius: { medianAbs: quantile(radiusErrors, 0.5), p90Abs: quantile(radiusErrors, 0.9) },
    time: timing(rows),
  };
}

/** Minimal CSV reader for ground_truth.csv (quoted fields may hold commas). */
function parseCsv(text: string): Array<Record<string, string>> {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      if (record.some((f) => f !== '')) records.push(record);
      record = [];
      field = '';
    } else {
      field += c;
    }
  }
  record.push(field);
  if (record.some((f) => f !== '')) records.push(record);
  const [header, ...body] = records;
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

async function benchReal(folder: string): Promise<RealResult> {
  const rows: RealRow[] = [];
  for (const entry of parseCsv(readFileSync(path.join(folder, 'ground_truth.csv'), 'utf8'))) {
    const file = path.join(folder, entry.image);
    const eye = entry.eye === 'OS' ? 'OS' : 'OD';
    const meta = await sharp(file).metadata();
    const raster = await decodeRgb(file, SERVER_LONGEST_SIDE);
    const factor = (meta.width ?? raster.width) / raster.width;
    const { detection, ms, cpuMs } = timed(raster, { eye });

    const working = downsampleRaster(raster, 512);
    const apertureDiameter = findFieldOfView(working.red).diameter;
    const fieldPx = apertureDiameter !== null ? apertureDiameter * working.scale * factor : raster.width * factor;
    const dd = (fieldPx * DISC_DIAMETER_UM) / FIELD_UM;
    const truth = { x: Number(entry.fovea_x), y: Number(entry.fovea_y) };
    const fovea = { x: detection.fovea.x * factor, y: detection.fovea.y * factor };
    const foveaErrorPx = Math.hypot(fovea.x - truth.x, fovea.y - truth.y);
    rows.push({
      image: entry.image,
      eye,
      width: meta.width ?? raster.width,
      height: meta.height ?? raster.height,
      discDiameterEstimatePx: dd,
      ddEstimate: apertureDiameter !== null ? 'field of view' : 'frame width',
      foveaTruth: truth,
      fovea,
      foveaErrorPx,
      foveaErrorDd: foveaErrorPx / dd,
      opticDisc: {
        x: detection.opticDisc.center.x * factor,
        y: detection.opticDisc.center.y * factor,
        radiusPx: detection.opticDisc.radiusPx * factor,
      },
      confidence: detection.confidence,
      ms,
      cpuMs,
    });
  }
  return { rows, fovea: summarise(rows.map((r) => r.foveaErrorDd)), time: timing(rows) };
}

function summaryLine(name: string, s: Summary): string {
  return (
    `${name}: median ${fmt(s.medianDd)} DD, p90 ${fmt(s.p90Dd)} DD, ` +
    `within 0.25 DD ${pct(s.within025Dd)}, within 0.5 DD ${pct(s.within05Dd)} (n = ${s.count})`
  );
}

function timingLine(t: Timing): string {
  return `time per image: mean ${fmt(t.meanMs, 0)} ms, max ${fmt(t.maxMs, 0)} ms (mean CPU ${fmt(t.meanCpuMs, 0)} ms)`;
}

function printGenerated(title: string, result: GeneratedResult): void {
  console.log(`\n${title}`);
  printTable(
    ['seed', 'eye', 'DD px', 'fovea px', 'fovea DD', 'disc px', 'disc DD', 'radius err', 'conf disc', 'conf fovea', 'ms'],
    result.rows.map((r) => [
      String(r.seed),
      r.eye,
      fmt(r.discDiameterPx, 0),
      fmt(r.foveaErrorPx, 1),
      fmt(r.foveaErrorDd),
      fmt(r.discErrorPx, 1),
      fmt(r.discErrorDd),
      `${fmt(100 * r.discRadiusError, 0)} %`,
      fmt(r.confidence.opticDisc),
      fmt(r.confidence.fovea),
      fmt(r.ms, 0),
    ]),
  );
  console.log(summaryLine('fovea', result.fovea));
  console.log(summaryLine('disc centre', result.disc));
  const radius = result.discRadius;
  console.log(`disc radius: median |error| ${pct(radius.medianAbs)}, p90 ${pct(radius.p90Abs)}`);
  console.log(timingLine(result.time));
}

function printReal(result: RealResult, folder: string): void {
  console.log(`\nReal photos (${folder}), eye hint from the CSV, downscaled to ${SERVER_LONGEST_SIDE} px for detection`);
  console.log('DD is an ESTIMATE: field-of-view circle diameter × 1800 µm / (45° × 288 µm/°) = 0.139 × FOV diameter.');
  console.log('No expert disc: disc errors n/a (no ground truth); the detected disc is printed in original pixels.');
  printTable(
    [
      'image',
      'eye',
      'size',
      'DD est px',
      'fovea truth',
      'fovea found',
      'fovea px',
      'fovea DD',
      'disc found (x, y, r)',
      'disc err',
      'conf disc',
      'conf fovea',
      'ms',
    ],
    result.rows.map((r) => [
      path.basename(r.image),
      r.eye,
      `${r.width}×${r.height}`,
      `${fmt(r.discDiameterEstimatePx, 0)}${r.ddEstimate === 'frame width' ? '*' : ''}`,
      `${fmt(r.foveaTruth.x, 0)}, ${fmt(r.foveaTruth.y, 0)}`,
      `${fmt(r.fovea.x, 0)}, ${fmt(r.fovea.y, 0)}`,
      fmt(r.foveaErrorPx, 0),
      fmt(r.foveaErrorDd),
      `${fmt(r.opticDisc.x, 0)}, ${fmt(r.opticDisc.y, 0)}, ${fmt(r.opticDisc.radiusPx, 0)}`,
      'n/a',
      fmt(r.confidence.opticDisc),
      fmt(r.confidence.fovea),
      fmt(r.ms, 0),
    ]),
  );
  if (result.rows.some((r) => r.ddEstimate === 'frame width')) {
    console.log('* no round field of view found: DD from the frame width');
  }
  const errorsPx = result.rows.map((r) => r.foveaErrorPx);
  console.log(summaryLine('fovea', result.fovea));
  const [medianPx, p90Px] = [quantile(errorsPx, 0.5), quantile(errorsPx, 0.9)];
  console.log(`fovea in original pixels: median ${fmt(medianPx, 0)} px, p90 ${fmt(p90Px, 0)} px`);
  console.log('disc: n/a (no ground truth)');
  console.log(timingLine(result.time));
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const jsonAt = args.indexOf('--json');
  const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
  if (jsonAt >= 0 && !jsonFile) {
    console.error('--json needs a file name');
    return 2;
  }
  const check = args.includes('--check');

  // Warm-up (not timed): the server is a long-running process, so the compiler's first passes over the
  // detector are not what a user waits for.
  const warmUp = paintSyntheticFundus({ width: GENERATED.width, height: GENERATED.height, eye: 'OD', seed: 999 });
  for (let i = 0; i < WARM_UP_RUNS; i++) {
    detectLandmarks(warmUp.raster, i % 2 === 0 ? { eye: 'OD', umPerPixel: warmUp.umPerPixel } : {});
  }

  console.log(
    `Generated exams: seeds 1…${GENERATED.seeds}, eye alternating, ${GENERATED.width} × ${GENERATED.height}, ` +
      `JPEG q${GENERATED.jpegQuality}; DD = 2 × true disc radius`,
  );
  const hinted = await benchGenerated(true);
  printGenerated('With the exam hints (eye, µm per pixel), as the server detects:', hinted);
  const blind = await benchGenerated(false);
  printGenerated('Without hints:', blind);

  const folder = process.env.FUNDUS_DIR
    ? path.resolve(process.env.FUNDUS_DIR)
    : path.resolve(root, '..', 'shared', 'data', 'fundus');
  let real: RealResult | null = null;
  if (existsSync(path.join(folder, 'ground_truth.csv'))) {
    real = await benchReal(folder);
    printReal(real, folder);
  } else {
    console.log(`\nReal photos: skipped (no ${path.join(folder, 'ground_truth.csv')}; set FUNDUS_DIR)`);
  }

  const passed = hinted.fovea.within025Dd >= ACCEPTANCE_SHARE;
  console.log(
    `\nAcceptance (generated, with hints): fovea within 0.25 DD in ${pct(hinted.fovea.within025Dd)} ` +
      `(needs ≥ ${pct(ACCEPTANCE_SHARE)}): ${passed ? 'PASS' : 'FAIL'}`,
  );

  if (jsonFile) {
    const report = {
      generated: { ...GENERATED, withHints: hinted, withoutHints: blind },
      real: real && {
        folder,
        ddEstimate: 'field-of-view circle diameter × 1800 / (45 × 288); disc errors n/a (no ground truth)',
        ...real,
      },
      acceptance: { foveaWithin025DdShare: hinted.fovea.within025Dd, required: ACCEPTANCE_SHARE, passed },
    };
    writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`Figures written to ${jsonFile}`);
  }
  return check && !passed ? 1 : 0;
}

process.exitCode = await main();
