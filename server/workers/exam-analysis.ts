// What processing computes from an accepted exam's file (server/services/exam-processing.ts), run in a worker
// thread: the file is read, every image is decoded and made into a display image and a thumbnail, the optic disc
// and the fovea are detected on the fundus image, the scale is taken or estimated, and the FAZ and ONH zones of
// plan step 0 are proposed. A file that turns out bad is an answer (its message key), not a throw: the session
// shows it, and retrying cannot help.
import sharp from 'sharp';
import { detectLandmarks } from '../../src/domain/fundus/detect-landmarks';
import type { Raster } from '../../src/domain/fundus/raster';
import type { ExamManifest, NptImageEntry } from '../../src/domain/npt/manifest';
import { readExam } from '../../src/domain/npt/read-npt';
import { proposeExclusionZones, scaleOf } from '../../src/domain/planning/exclusion-zones';
import type { StoredPlan } from '../db/tables';
import type { MessageKey } from '../i18n';

/** Longest side of the display image the plan's pixel coordinates refer to. */
export const DISPLAY_MAX_PX = 2048;
export const THUMBNAIL_WIDTH_PX = 320;
const MAX_INPUT_PIXELS = 8192 * 8192;

export interface PreparedImage {
  entry: NptImageEntry;
  display: Uint8Array;
  thumbnail: Uint8Array;
  width: number;
  height: number;
}

/** The file is bad: the session shows the error, retrying cannot help. */
export type ExamRefusal = { ok: false; code: MessageKey; params: Record<string, string | number> };

export type ExamAnalysis = { ok: true; images: PreparedImage[]; plan: StoredPlan; detection: Record<string, unknown> } | ExamRefusal;

const refused = (code: MessageKey, params: Record<string, string | number> = {}): ExamRefusal => ({ ok: false, code, params });

type Decoded = PreparedImage & { raster: Raster | null };

async function prepareImage(entry: NptImageEntry, bytes: Uint8Array, keepRaster: boolean): Promise<Decoded | ExamRefusal> {
  try {
    const { data, info } = await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
      .resize({ width: DISPLAY_MAX_PX, height: DISPLAY_MAX_PX, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
    const display = await sharp(data, raw).jpeg({ quality: 90 }).toBuffer();
    const thumbnail = await sharp(data, raw).resize({ width: THUMBNAIL_WIDTH_PX }).jpeg({ quality: 80 }).toBuffer();
    const raster =
      keepRaster && info.channels === 3
        ? { width: info.width, height: info.height, data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length) }
        : null;
    return { entry, display, thumbnail, width: info.width, height: info.height, raster };
  } catch {
    return refused('npt.image_undecodable', { file: entry.file });
  }
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function proposedPlan(manifest: ExamManifest, fundus: Decoded & { raster: Raster }): { plan: StoredPlan; detection: Record<string, unknown> } {
  const resize = fundus.width / fundus.entry.width;
  const examScale = manifest.exam.umPerPixel;
  const found = detectLandmarks(fundus.raster, { eye: manifest.exam.eye, umPerPixel: examScale ? examScale / resize : null });
  const detectedScale = scaleOf(found, examScale, resize);
  // The stored scale is rounded first and the zones derived from it, so their µm are their pixels times the
  // plan's scale exactly (the plan's invariants check that).
  const scale = { umPerPixel: Math.round(detectedScale.umPerPixel * 1000) / 1000, source: detectedScale.source };
  // Zones proposed around the landmarks as stored (rounded to 0.01 px), which the plan's checks read.
  const landmarks = {
    ...found,
    fovea: { x: round2(found.fovea.x), y: round2(found.fovea.y) },
    opticDisc: { center: { x: round2(found.opticDisc.center.x), y: round2(found.opticDisc.center.y) }, radiusPx: round2(found.opticDisc.radiusPx) },
  };
  const zones = proposeExclusionZones(landmarks, scale);
  return {
    plan: {
      scale,
      fovea: landmarks.fovea,
      opticDisc: landmarks.opticDisc,
      imagedField: {
        width: fundus.width,
        height: fundus.height,
        aperture: found.aperture ? { center: { x: round2(found.aperture.center.x), y: round2(found.aperture.center.y) }, radiusPx: Math.floor(found.aperture.radiusPx * 100) / 100 } : null,
      },
      exclusionZones: zones,
      gridSettings: null,
      spots: [],
      brightness: null,
      signOff: null,
      parameterSet: null,
    },
    detection: { ...found, imageWidth: fundus.width, imageHeight: fundus.height },
  };
}

/** The exam's file as accepted at upload (its SHA-256 checked by the caller), analysed. */
export async function analyseExam(bytes: Uint8Array): Promise<ExamAnalysis> {
  // The file was accepted under the upload limit of its day; a limit lowered since must not fail it now.
  const read = readExam(bytes, { maxFileBytes: Math.max(bytes.length, 1) });
  if (!read.ok) return refused(`npt.${read.error.code}` as MessageKey, read.error.params);
  const { manifest, images } = read.value;
  const prepared: Decoded[] = [];
  for (const entry of manifest.images) {
    const image = await prepareImage(entry, images[entry.file], entry.role === 'fundus');
    if ('ok' in image) return image;
    prepared.push(image);
  }
  const fundus = prepared.find((image) => image.entry.role === 'fundus')!;
  if (!fundus.raster) return refused('npt.image_undecodable', { file: fundus.entry.file });
  const { plan, detection } = proposedPlan(manifest, { ...fundus, raster: fundus.raster });
  return { ok: true, images: prepared.map(({ entry, display, thumbnail, width, height }) => ({ entry, display, thumbnail, width, height })), plan, detection };
}
