// The heavy work of the server, as tasks of the pool's worker threads (server/workers/pool.ts): each takes plain
// data (bytes as Uint8Arrays whose buffers were moved here) and answers plain data, its large buffers moved back.
// Nothing here touches the database, the file store or the request: those stay on the server's thread.
import { readFile } from 'node:fs/promises';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import sharp from 'sharp';
import type { Point, Raster } from '../../src/domain/fundus/raster';
import type { ExamManifest } from '../../src/domain/npt/manifest';
import type { NptError } from '../../src/domain/npt/npt-error';
import { readExam, readParameterSet } from '../../src/domain/npt/read-npt';
import { lumaMap, type LumaMap } from '../../src/domain/planning/brightness';
import { registrationSteps, type Registration } from '../../src/domain/registration/earlier-treatment';
import { renderTreatmentReport, type ReportInput } from '../report/treatment-report-pdf';
import { analyseExam, type ExamAnalysis } from './exam-analysis';
import { asBuffer, Handover } from './transfer';

// One libvips thread per task: the pool's size (one thread fewer than the cores) is then what image work takes,
// and the server's thread keeps a core (libvips would otherwise use every core for each image).
sharp.concurrency(1);

/** An answer whose buffers move to the server's thread instead of being copied (piscina unwraps it). */
function moving<T extends object>(value: T, handover: Handover): T {
  return move({ [transferableSymbol]: handover.list, [valueSymbol]: value }) as unknown as T;
}

/** Detection and what processing computes from the exam's images (server/workers/exam-analysis.ts). */
async function processExam(input: { exam: Uint8Array }): Promise<ExamAnalysis> {
  const analysis = await analyseExam(input.exam);
  if (!analysis.ok) return analysis;
  const handover = new Handover();
  const images = analysis.images.map((image) => ({ ...image, display: handover.move(image.display), thumbnail: handover.move(image.thumbnail) }));
  return moving({ ...analysis, images }, handover);
}

export type ExamRead = { ok: true; manifest: ExamManifest } | { ok: false; error: NptError };

/**
 * An NPT exam read and validated (inflated, every entry checked), from a staged upload's path or from bytes:
 * the manifest, or why the file is refused. `head` is the file's first bytes, for telling other file types.
 */
async function readExamManifest(input: ({ path: string } | { bytes: Uint8Array }) & { maxFileBytes?: number }): Promise<{ head: Uint8Array; read: ExamRead }> {
  const bytes = 'path' in input ? new Uint8Array(await readFile(input.path)) : input.bytes;
  const read = readExam(bytes, input.maxFileBytes === undefined ? undefined : { maxFileBytes: input.maxFileBytes });
  return { head: bytes.slice(0, 8), read: read.ok ? { ok: true, manifest: read.value.manifest } : { ok: false, error: read.error } };
}

/** Whether a stored parameter set still reads as one (its plan checksum included). */
function checkParameterSet(input: { bytes: Uint8Array }): boolean {
  return readParameterSet(input.bytes).ok;
}

/** A display image (JPEG) as an RGB raster. */
async function rasterOf(jpeg: Uint8Array, colourspace: boolean): Promise<Raster> {
  const decoded = sharp(jpeg).removeAlpha();
  const { data, info } = await (colourspace ? decoded.toColourspace('srgb') : decoded).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length) };
}

export interface RegistrationSide {
  /** The session's fundus display image (JPEG). */
  jpeg: Uint8Array;
  landmarks: { disc: Point; fovea: Point };
  umPerPixel: number;
}

/** The earlier display image registered onto today's (src/domain/registration/earlier-treatment.ts), or null. */
async function registerEarlierImage(input: { earlier: RegistrationSide; today: RegistrationSide }): Promise<Registration | null> {
  const [earlierRaster, todayRaster] = [await rasterOf(input.earlier.jpeg, true), await rasterOf(input.today.jpeg, true)];
  const steps = registrationSteps(
    { raster: earlierRaster, landmarks: input.earlier.landmarks, umPerPixel: input.earlier.umPerPixel },
    { raster: todayRaster, landmarks: input.today.landmarks, umPerPixel: input.today.umPerPixel },
  );
  // In steps so that the server's thread could pause between them; here nothing else waits for this thread.
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** The display image's brightness (row sums of its luma) for the brightness step. */
async function displayLuma(input: { jpeg: Uint8Array }): Promise<LumaMap> {
  const luma = lumaMap(await rasterOf(input.jpeg, false));
  const handover = new Handover();
  handover.moveArray(luma.rowSums);
  return moving(luma, handover);
}

/** The treatment report's PDF (server/report/treatment-report-pdf.ts). */
async function renderReport(input: Omit<ReportInput, 'image'> & { image: { jpeg: Uint8Array; width: number; height: number } | null }): Promise<Uint8Array> {
  const image = input.image && { ...input.image, jpeg: asBuffer(input.image.jpeg) };
  const handover = new Handover();
  return moving(handover.move(await renderTreatmentReport({ ...input, image })), handover);
}

export const TASKS = { processExam, readExamManifest, checkParameterSet, registerEarlierImage, displayLuma, renderReport };

export type TaskName = keyof typeof TASKS;
export type TaskInput<K extends TaskName> = Parameters<(typeof TASKS)[K]>[0];
export type TaskOutput<K extends TaskName> = Awaited<ReturnType<(typeof TASKS)[K]>>;

/** What the pool sends: the task, its input and, in fault tests only, an order to die mid-task. */
export interface TaskMessage<K extends TaskName = TaskName> {
  task: K;
  input: TaskInput<K>;
  fault?: 'exit';
}

/** The entry point of every task (server/workers/entry.mjs). */
export async function perform<K extends TaskName>({ task, input, fault }: TaskMessage<K>): Promise<TaskOutput<K>> {
  // A worker thread that dies in the middle of a job (fault tests): process.exit ends this thread only.
  if (fault === 'exit') process.exit(1);
  const run = TASKS[task] as (input: TaskInput<K>) => TaskOutput<K> | Promise<TaskOutput<K>>;
  return run(input);
}
