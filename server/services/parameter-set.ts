// Sign-off, packing and handing out the parameter set (wizard steps 4–5, plan steps 6 → 7 → 8):
// - a physician signs off with their password re-entered, on the revision they saw; the invariants are checked
//   once more with the laser settings complete, and a durable `treatment.pack` job is queued in the same
//   transaction;
// - the job writes the `parameter-set` NPT (with its planSha256) from the signed plan and the exam's own
//   device, patient and exam records, under a file name fixed by the job, so a run after a crash replaces
//   what the last one left; the session becomes `available` only in the job's finishing transaction;
// - every download checks the stored file against its SHA-256 and the plan checksum inside it; a file that
//   fails is never served.
import type { SignOffInput } from '../../generated/model/signOffInput';
import type { Treatment } from '../../generated/model/treatment';
import { writeParameterSet } from '../../src/domain/npt/write-npt';
import type { NptPlan } from '../../src/domain/npt/manifest';
import type { ImagedField } from '../../src/domain/planning/macula-grid';
import { checkPlan } from '../../src/domain/planning/plan-invariants';
import type { AppContext } from '../context';
import type { JobRow, Queryable, StoredPlan, TreatmentRow } from '../db/tables';
import { conflict, HttpError, notFound } from '../http/errors';
import type { MessageKey } from '../i18n';
import { enqueue } from '../jobs/queue';
import type { Claim, JobDefinition } from '../jobs/worker';
import { clinicAccount } from '../repositories/accounts';
import { patientNameOf } from '../repositories/patients';
import { lockPlanProgress, updatePlan } from '../repositories/plans';
import { treatmentById } from '../repositories/treatments';
import { confirmPassword } from '../security/throttle';
import { sha256Hex } from '../storage/store';
import { audit } from './audit';
import { checkContextOf, checkedPlanOf, treatmentDeviceOf } from './clinical-safety';
import { displayName } from './people';
import type { Actor } from '../actor';
import { assertRevision, imagedFieldOf, lockedPlan, STEP_INDEX } from './plan-steps';
import { assertChangeable, sessionLocked } from './treatment-changes';
import { findTreatmentRow, laserSettingsOf, loadTreatment, treatmentFolder } from './treatments';
import { insertPlanChange } from '../repositories/plan-changes';
import { announce, heldAnnouncements, sessionEvents } from '../realtime/announce';
import { notify } from './notifications';
import { patientLabel } from './patients';
import { runTask } from '../workers/pool';
import { Handover } from '../workers/transfer';
import { queueParameterSet } from './transfers';

/**
 * The plan's invariants before sign-off and before packing, consistency and clinical limits alike, against
 * the treating device's profile as it is now: a broken one answers 409 with its code.
 */
async function assertPackable(db: Queryable, plan: StoredPlan, row: TreatmentRow, field: ImagedField) {
  const problems = checkPlan(checkedPlanOf(plan, row), { ...(await checkContextOf(db, row, field)), powers: true, packing: true });
  if (problems.length) {
    const [problem] = problems;
    throw new HttpError(409, problem.code, problem.code, { ...problem.params, spots: problem.spotIds.join(', ') });
  }
}

/**
 * Signs the plan off and queues its packing; audited either way (a refusal with its reason). Answers the session
 * as it then stands.
 */
export async function signOff(ctx: AppContext, actor: Actor, treatmentId: string, input: SignOffInput, wakeJobs: () => void): Promise<Treatment> {
  try {
    await signOffPlan(ctx, actor, treatmentId, input, wakeJobs);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unknown';
    await audit(ctx.db, actor, { action: 'plan.sign_off', outcome: 'failure', targetType: 'treatment', targetId: treatmentId, detail: { reason } });
    throw error;
  }
  await audit(ctx.db, actor, { action: 'plan.sign_off', outcome: 'success', targetType: 'treatment', targetId: treatmentId });
  return loadTreatment(ctx.db, actor.clinicId, treatmentId, actor.lang);
}

/** The sign-off itself. Wrong passwords count on the user's own re-authentication key. */
async function signOffPlan(ctx: AppContext, actor: Actor, treatmentId: string, input: SignOffInput, wakeJobs: () => void): Promise<void> {
  // Out of reach (404) or locked (423) before the password is looked at; checked again below under the row lock.
  await assertChangeable(ctx, actor, treatmentId);
  const user = await clinicAccount(ctx.db, actor.userId, actor.clinicId);
  if (!user) throw notFound();
  if (!(await confirmPassword(ctx, user, input.password))) {
    throw new HttpError(422, 'auth.password_invalid', 'auth.password_invalid', {}, { password: ['auth.password_invalid'] });
  }

  const signed = await ctx.db.transaction().execute(async (tx) => {
    const row = await lockedPlan(tx, actor, treatmentId);
    if (row.step_index !== STEP_INDEX.confirm_sign_off) throw conflict('plan.step_out_of_order', 'plan.sign_off_early');
    await assertRevision(tx, row, input.revision);
    const laser = laserSettingsOf(row);
    if (laser.spotSizeUm === null || laser.spotSpacing === null || laser.pulseDurationMs === null || laser.laserMode === null || laser.laserDose === null) {
      throw conflict('plan.laser_settings_missing', 'plan.laser_settings_missing');
    }
    await assertPackable(tx, row.plan, row, await imagedFieldOf(tx, row));

    const now = ctx.clock.now();
    const name = displayName(user);
    const revision = row.plan_revision + 1;
    const plan: StoredPlan = { ...row.plan, signOff: { by: { id: user.id, name }, at: now.toISOString() }, parameterSet: null };
    await updatePlan(tx, row.id, { plan, step: 'npt_packing', step_index: STEP_INDEX.npt_packing, plan_revision: revision, updated_at: now });
    await insertPlanChange(tx, { treatmentId: row.id, at: now, by: { id: user.id, name }, action: 'signed_off', step: 'npt_packing', revision, details: { spots: row.total_spots } });
    await enqueue(tx, { kind: 'treatment.pack', clinicId: row.clinic_id, subjectId: row.id, now });
    return row;
  });
  announceChange(ctx, signed);
  wakeJobs();
}

/** The session's plan status moved (signed, packed, back to sign-off): the card, the wizard and the list show it. */
const announceChange = (ctx: AppContext, row: Pick<TreatmentRow, 'id' | 'clinic_id' | 'patient_id'>) =>
  announce(ctx, sessionEvents('treatment.modified', { clinicId: row.clinic_id, patientId: row.patient_id, treatmentId: row.id }));

const fileNameOf = (row: TreatmentRow, at: Date) => `parameter-set-${row.id.slice(0, 8)}-${row.eye}-${at.toISOString().slice(0, 10)}.npt`;

/** The `treatment.pack` job: the signed plan as a parameter-set file, then the session at `available`. */
export function parameterSetPacking(ctx: AppContext): JobDefinition {
  const load = (job: JobRow) => treatmentById(ctx.db, job.subject_id);

  /**
   * The plan back at sign-off, why recorded in its audit trail, and the physician who signed it off told: they
   * expect a parameter set, and the session would otherwise only show the change when opened.
   */
  async function backToSignOff(claim: Claim, row: TreatmentRow | undefined, reason: MessageKey) {
    const notifications = heldAnnouncements(ctx);
    await claim.finish(
      'failed',
      async (tx) => {
        if (!row?.plan || row.step_index !== STEP_INDEX.npt_packing) return;
        const now = ctx.clock.now();
        const revision = row.plan_revision + 1;
        await updatePlan(tx, row.id, { plan: { ...row.plan, signOff: null }, step: 'confirm_sign_off', step_index: STEP_INDEX.confirm_sign_off, plan_revision: revision, updated_at: now });
        await insertPlanChange(tx, { treatmentId: row.id, at: now, by: null, action: 'packing_failed', step: 'confirm_sign_off', revision, details: { reason } });
        const patient = await patientNameOf(tx, row.patient_id);
        if (row.plan.signOff && patient) {
          await notify(
            { ...notifications.ctx, db: tx },
            {
              clinicId: row.clinic_id,
              to: { userIds: [row.plan.signOff.by.id] },
              event: 'parameter_set_failed',
              params: { number: row.number, patient: patientLabel(patient), patientId: row.patient_id, reasonKey: reason },
              link: `/physician/planning?treatmentId=${row.id}`,
            },
          );
        }
      },
      reason,
    );
    notifications.release();
    if (row) announceChange(ctx, row);
  }

  return {
    async run(job, claim) {
      const row = await load(job);
      // Deleted, locked, or signed off again meanwhile: nothing to pack.
      if (!row?.plan?.signOff || row.locked || row.step_index !== STEP_INDEX.npt_packing) {
        await claim.finish('done', async () => {});
        return;
      }
      const examBytes = row.file_path ? await ctx.files.get(row.file_path) : null;
      // Inflated and validated in a worker thread: only the manifest comes back.
      const handover = new Handover();
      const exam = examBytes ? (await runTask('readExamManifest', { bytes: handover.move(examBytes) }, handover)).read : null;
      if (!exam?.ok) {
        await backToSignOff(claim, row, 'treatment.file_missing');
        return;
      }
      const { plan } = row;
      try {
        await assertPackable(ctx.db, plan, row, await imagedFieldOf(ctx.db, { ...row, plan }));
      } catch {
        await backToSignOff(claim, row, 'plan.packing_refused');
        return;
      }
      const laser = laserSettingsOf(row);
      const treating = await treatmentDeviceOf(ctx.db, row);
      const signOff = plan.signOff!;
      const nptPlan: NptPlan = {
        treatmentId: row.id,
        scale: plan.scale!,
        fovea: plan.fovea!,
        exclusionZones: [plan.exclusionZones!.faz, plan.exclusionZones!.onh],
        laser: {
          spotSizeUm: laser.spotSizeUm!,
          spotSpacing: laser.spotSpacing!,
          pulseDurationMs: laser.pulseDurationMs!,
          laserMode: laser.laserMode!,
          laserDose: laser.laserDose!,
          dutyCyclePercent: laser.laserMode === 'micropulse' ? laser.dutyCyclePercent : null,
          // assertPackable made sure the treating device has a profile.
          wavelengthNm: treating!.laserProfile!.wavelengthNm,
        },
        spots: plan.spots.filter((spot) => spot.enabled).map(({ id, x, y, xUm, yUm, powerMw }) => ({ id, x, y, xUm, yUm, powerMw: powerMw! })),
        signOff: { by: signOff.by, at: signOff.at },
      };
      const now = ctx.clock.now();
      const { device, patient, exam: examInfo } = exam.manifest;
      const bytes = writeParameterSet({ manifest: { createdAt: now.toISOString(), device, patient, exam: examInfo, plan: nptPlan } });
      // Named by the job: a second run (after a crash) replaces this file instead of adding one.
      const key = await ctx.files.put(row.clinic_id, treatmentFolder(row.patient_id, row.id), bytes, job.id);
      // Fault tests stop here: the file is written, the session not yet `available`.
      if (ctx.config.jobPauseMs > 0) await new Promise((resolve) => setTimeout(resolve, ctx.config.jobPauseMs));
      await claim.finish('done', async (tx) => {
        const current = await lockPlanProgress(tx, row.id);
        if (!current || current.step_index !== STEP_INDEX.npt_packing) return;
        const revision = current.plan_revision + 1;
        const parameterSet = { fileName: fileNameOf(row, now), size: bytes.length, sha256: sha256Hex(bytes), createdAt: now.toISOString() };
        await updatePlan(tx, row.id, {
          plan: { ...plan, parameterSet },
          parameter_set_path: key,
          step: 'available',
          step_index: STEP_INDEX.available,
          plan_revision: revision,
          updated_at: now,
        });
        await insertPlanChange(tx, {
          treatmentId: row.id,
          at: now,
          by: null,
          action: 'parameter_set_packed',
          step: 'available',
          revision,
          details: { spots: nptPlan.spots.length, size: bytes.length },
        });
        // To the laser that treats (issue 29), when its sync app is enrolled; else it is downloaded by hand.
        await queueParameterSet(tx, row, treating?.id ?? null, parameterSet, now);
      });
      announceChange(ctx, row);
    },
    async giveUp(job, claim) {
      await backToSignOff(claim, await load(job), 'plan.packing_failed');
    },
  };
}

/**
 * A stored parameter set's bytes, checked before they are sent (to a person or a laser): the size and SHA-256
 * recorded at packing, and the plan checksum inside it (409 `treatment.parameter_set_corrupted` otherwise).
 */
export async function intactParameterSet(ctx: AppContext, path: string, expected: { size: number; sha256: string }): Promise<Buffer> {
  const bytes = await ctx.files.get(path);
  // Read in a worker thread from a copy (not moved: these bytes are then sent).
  const intact = bytes !== null && bytes.length === expected.size && sha256Hex(bytes) === expected.sha256 && (await runTask('checkParameterSet', { bytes }));
  if (!intact) throw conflict('treatment.parameter_set_corrupted', 'treatment.parameter_set_corrupted');
  return bytes;
}

/**
 * The stored parameter set of a session of the actor's reach (404 out of reach, 423 locked), checked: its SHA-256
 * as packed, and the plan checksum inside it. The download is audited with the session's patient.
 */
export async function parameterSetFile(ctx: AppContext, actor: Actor, treatmentId: string): Promise<{ fileName: string; bytes: Buffer }> {
  const row = await findTreatmentRow(ctx.db, actor.clinicId, treatmentId);
  if (row.locked) throw sessionLocked();
  const info = row.plan?.parameterSet;
  if (row.step_index !== STEP_INDEX.available || !info || !row.parameter_set_path) {
    throw conflict('treatment.parameter_set_not_ready', 'treatment.parameter_set_not_ready');
  }
  const bytes = await intactParameterSet(ctx, row.parameter_set_path, info);
  await audit(ctx.db, actor, { action: 'plan.parameter_set_downloaded', outcome: 'success', targetType: 'treatment', targetId: row.id, patientIds: [row.patient_id] });
  return { fileName: info.fileName, bytes };
}
