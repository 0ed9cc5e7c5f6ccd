// Processing an accepted exam in the background (plan status file_uploaded → processing → planning): the
// stored file is read again, every image is decoded and stored as a display image and a thumbnail, the
// optic disc and the fovea are detected on the fundus image, and the FAZ and ONH zones are proposed (plan
// step 0). A file that turns out bad ends in an error on the session ("Error Detected"), never in a
// session stuck in processing. Results, job end and the uploader's notification commit together.
import sharp from 'sharp';
import { detectLandmarks } from '../../src/domain/fundus/detect-landmarks';
import type { Raster } from '../../src/domain/fundus/raster';
import type { ExamManifest, NptImageEntry } from '../../src/domain/npt/manifest';
import { readExam } from '../../src/domain/npt/read-npt';
import { proposeExclusionZones, scaleOf } from '../../src/domain/planning/exclusion-zones';
import type { AppContext } from '../context';
import type { JobRow, StoredPlan, TreatmentRow } from '../db/tables';
import type { MessageKey } from '../i18n';
import type { Claim, JobDefinition } from '../jobs/worker';
import { notify } from './notifications';
import { patientLabel } from './patients';
import { treatmentFolder } from './treatments';
import { recordPlanChange } from './plan-audit';
import { announce, event, heldAnnouncements, sessionEvents } from '../realtime/announce';
import { sha256Hex, StorageIntegrityError } from '../storage/store';

/** Longest side of the display image the plan's pixel coordinates refer to. */
export const DISPLAY_MAX_PX = 2048;
export const THUMBNAIL_WIDTH_PX = 320;
const MAX_INPUT_PIXELS = 8192 * 8192;

/** The file is bad: the session shows the error, retrying cannot help. */
class ExamError extends Error {
  constructor(
    readonly code: MessageKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(code);
  }
}

interface PreparedImage {
  entry: NptImageEntry;
  display: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
  raster: Raster | null;
}

async function prepareImage(entry: NptImageEntry, bytes: Uint8Array, keepRaster: boolean): Promise<PreparedImage> {
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
    throw new ExamError('npt.image_undecodable', { file: entry.file });
  }
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function proposedPlan(manifest: ExamManifest, fundus: PreparedImage): { plan: StoredPlan; detection: Record<string, unknown> } {
  if (!fundus.raster) throw new ExamError('npt.image_undecodable', { file: fundus.entry.file });
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The uploaded exam as accepted: whatever the store, its bytes must still have the SHA-256 taken at upload. */
async function storedExam(ctx: AppContext, treatment: TreatmentRow): Promise<Buffer> {
  let bytes: Buffer | null = null;
  try {
    bytes = treatment.file_path ? await ctx.files.get(treatment.file_path) : null;
  } catch (error) {
    if (error instanceof StorageIntegrityError) throw new ExamError('treatment.file_damaged');
    throw error;
  }
  if (!bytes) throw new ExamError('treatment.file_missing');
  if (treatment.file_sha256 && sha256Hex(bytes) !== treatment.file_sha256) throw new ExamError('treatment.file_damaged');
  return bytes;
}

export function examProcessing(ctx: AppContext): JobDefinition {
  const loadTreatment = (job: JobRow) =>
    ctx.db.selectFrom('treatments').selectAll().where('id', '=', job.subject_id).executeTakeFirst();

  /** The session's outcome (and its status in the patient lists), to the clinic's screens. */
  const announceOutcome = (treatment: TreatmentRow, name: 'treatment.processed' | 'treatment.failed') =>
    announce(ctx, sessionEvents(name, { clinicId: treatment.clinic_id, patientId: treatment.patient_id, treatmentId: treatment.id }));

  async function fail(claim: Claim, treatment: TreatmentRow, code: MessageKey, params: Record<string, string | number>) {
    await claim.finish(
      'failed',
      async (tx) => {
        await tx
          .updateTable('treatments')
          .set({ processing_state: 'failed', error_code: code, error_params: JSON.stringify(params), error_message: null, updated_at: ctx.clock.now() })
          .where('id', '=', treatment.id)
          .execute();
      },
      code,
    );
    announceOutcome(treatment, 'treatment.failed');
  }

  async function run(job: JobRow, claim: Claim): Promise<void> {
    const treatment = await loadTreatment(job);
    // Deleted meanwhile, or already through (a claim that lapsed after its results were committed).
    if (!treatment || !['file_uploaded', 'processing'].includes(treatment.processing_state)) {
      await claim.finish('done', async () => undefined);
      return;
    }
    await ctx.db
      .updateTable('treatments')
      .set({ processing_state: 'processing', updated_at: ctx.clock.now() })
      .where('id', '=', treatment.id)
      .where('processing_state', '=', 'file_uploaded')
      .execute();
    announce(ctx, [event('patients.changed', treatment.clinic_id, { patientIds: [treatment.patient_id] })]);

    const written: string[] = [];
    try {
      const bytes = await storedExam(ctx, treatment);
      // The file was accepted under the upload limit of its day; a limit lowered since must not fail it now.
      const read = readExam(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), { maxFileBytes: Math.max(bytes.length, 1) });
      if (!read.ok) throw new ExamError(`npt.${read.error.code}` as MessageKey, read.error.params);
      const { manifest, images } = read.value;

      const prepared: PreparedImage[] = [];
      for (const entry of manifest.images) {
        prepared.push(await prepareImage(entry, images[entry.file], entry.role === 'fundus'));
      }
      const fundus = prepared.find((image) => image.entry.role === 'fundus')!;
      const { plan, detection } = proposedPlan(manifest, fundus);
      if (ctx.config.jobPauseMs > 0) await sleep(ctx.config.jobPauseMs);

      const kind = treatmentFolder(treatment.patient_id, treatment.id);
      const stored: { image: PreparedImage; displayPath: string; thumbnailPath: string }[] = [];
      for (const image of prepared) {
        const displayPath = await ctx.files.put(treatment.clinic_id, kind, image.display);
        written.push(displayPath);
        const thumbnailPath = await ctx.files.put(treatment.clinic_id, kind, image.thumbnail);
        written.push(thumbnailPath);
        stored.push({ image, displayPath, thumbnailPath });
      }
      const notifications = heldAnnouncements(ctx);
      await claim.finish('done', async (tx) => {
        const now = ctx.clock.now();
        await tx.deleteFrom('treatment_images').where('treatment_id', '=', treatment.id).execute();
        await tx
          .insertInto('treatment_images')
          .values(
            stored.map(({ image, displayPath, thumbnailPath }) => ({
              clinic_id: treatment.clinic_id,
              treatment_id: treatment.id,
              role: image.entry.role,
              entry: image.entry.file,
              width: image.width,
              height: image.height,
              original_width: image.entry.width,
              original_height: image.entry.height,
              display_path: displayPath,
              thumbnail_path: thumbnailPath,
              created_at: now,
            })),
          )
          .execute();
        await tx
          .updateTable('treatments')
          .set({
            processing_state: 'processed',
            plan: JSON.stringify(plan),
            detection: JSON.stringify(detection),
            error_code: null,
            error_params: null,
            updated_at: now,
          })
          .where('id', '=', treatment.id)
          .execute();
        // The first entry of the plan's audit trail: the system's proposal (revision 0).
        await recordPlanChange(tx, {
          treatmentId: treatment.id,
          at: now,
          by: null,
          action: 'proposed',
          step: 'initial_exclusion_boundaries',
          revision: 0,
          details: { fazUm: plan.exclusionZones!.faz.radiusXUm, onhUm: plan.exclusionZones!.onh.radiusXUm },
        });
        const patient = await tx.selectFrom('patients').select(['name', 'second_name']).where('id', '=', treatment.patient_id).executeTakeFirst();
        if (treatment.created_by && patient) {
          await notify(
            { ...notifications.ctx, db: tx },
            {
              clinicId: treatment.clinic_id,
              to: { userIds: [treatment.created_by] },
              event: 'treatment_processed',
              params: { number: treatment.number, patient: patientLabel(patient), patientId: treatment.patient_id },
              link: `/physician/patient-card?patientId=${treatment.patient_id}`,
            },
          );
        }
      });
      announceOutcome(treatment, 'treatment.processed');
      notifications.release();
    } catch (error) {
      for (const key of written) await ctx.files.remove(key);
      if (error instanceof ExamError) return fail(claim, treatment, error.code, error.params);
      throw error;
    }
  }

  return {
    run,
    async giveUp(job, claim) {
      const treatment = await loadTreatment(job);
      if (treatment) await fail(claim, treatment, 'treatment.processing_failed', {});
      else await claim.finish('failed', async () => undefined, 'treatment.processing_failed');
    },
  };
}
