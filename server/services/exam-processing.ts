// Processing an accepted exam in the background (plan status file_uploaded → processing → planning): the
// stored file is read again, every image is decoded and stored as a display image and a thumbnail, the
// optic disc and the fovea are detected on the fundus image, and the FAZ and ONH zones are proposed (plan
// step 0). A file that turns out bad ends in an error on the session ("Error Detected"), never in a
// session stuck in processing. Results, job end and the uploader's notification commit together.
import type { AppContext } from '../context';
import type { JobRow, TreatmentRow } from '../db/tables';
import type { MessageKey } from '../i18n';
import type { Claim, JobDefinition } from '../jobs/worker';
import { markProcessed, markProcessing, markProcessingFailed, replaceTreatmentImages } from '../repositories/exams';
import { patientNameOf } from '../repositories/patients';
import { treatmentById } from '../repositories/treatments';
import { notify } from './notifications';
import { patientLabel } from './patients';
import { treatmentFolder } from './treatments';
import { insertPlanChange } from '../repositories/plan-changes';
import { announce, event, heldAnnouncements, sessionEvents } from '../realtime/announce';
import { sha256Hex, StorageIntegrityError } from '../storage/store';
import { runTask } from '../workers/pool';
import { Handover } from '../workers/transfer';

/** The file is bad: the session shows the error, retrying cannot help. */
class ExamError extends Error {
  constructor(
    readonly code: MessageKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(code);
  }
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
  const loadTreatment = (job: JobRow) => treatmentById(ctx.db, job.subject_id);

  /** The session's outcome (and its status in the patient lists), to the clinic's screens. */
  const announceOutcome = (treatment: TreatmentRow, name: 'treatment.processed' | 'treatment.failed') =>
    announce(ctx, sessionEvents(name, { clinicId: treatment.clinic_id, patientId: treatment.patient_id, treatmentId: treatment.id }));

  async function fail(claim: Claim, treatment: TreatmentRow, code: MessageKey, params: Record<string, string | number>) {
    await claim.finish(
      'failed',
      async (tx) => {
        await markProcessingFailed(tx, treatment.id, code, params, ctx.clock.now());
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
    await markProcessing(ctx.db, treatment.id, ctx.clock.now());
    announce(ctx, [event('patients.changed', treatment.clinic_id, { patientIds: [treatment.patient_id] })]);

    const written: string[] = [];
    try {
      const bytes = await storedExam(ctx, treatment);
      // Read, decoded, detected and proposed in a worker thread (server/workers/exam-analysis.ts).
      const handover = new Handover();
      const analysis = await runTask('processExam', { exam: handover.move(bytes) }, handover);
      if (!analysis.ok) throw new ExamError(analysis.code, analysis.params);
      const { images: prepared, plan, detection } = analysis;
      if (ctx.config.jobPauseMs > 0) await sleep(ctx.config.jobPauseMs);

      const kind = treatmentFolder(treatment.patient_id, treatment.id);
      const stored: { image: (typeof prepared)[number]; displayPath: string; thumbnailPath: string }[] = [];
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
        await replaceTreatmentImages(
          tx,
          { id: treatment.id, clinicId: treatment.clinic_id },
          stored.map(({ image, displayPath, thumbnailPath }) => ({
            role: image.entry.role,
            entry: image.entry.file,
            width: image.width,
            height: image.height,
            originalWidth: image.entry.width,
            originalHeight: image.entry.height,
            displayPath,
            thumbnailPath,
          })),
          now,
        );
        await markProcessed(tx, treatment.id, plan, detection, now);
        // The first entry of the plan's audit trail: the system's proposal (revision 0).
        await insertPlanChange(tx, {
          treatmentId: treatment.id,
          at: now,
          by: null,
          action: 'proposed',
          step: 'initial_exclusion_boundaries',
          revision: 0,
          details: { fazUm: plan.exclusionZones!.faz.radiusXUm, onhUm: plan.exclusionZones!.onh.radiusXUm },
        });
        const patient = await patientNameOf(tx, treatment.patient_id);
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
