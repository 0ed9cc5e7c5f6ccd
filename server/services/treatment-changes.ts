// What the patient card changes on a session: its description, its deletion, "Report issue", which locks it,
// and "Withdraw report", which unlocks it again. Services without HTTP: they take the database, the clock and
// the acting user. Each change reads the session row FOR UPDATE first, so a report and a change racing each
// other cannot both win. Each is announced to the clinic's screens once committed.
import type { IssueReportInput } from '../../generated/model/issueReportInput';
import type { TreatmentUpdate } from '../../generated/model/treatmentUpdate';
import type { Actor } from '../actor';
import { type AppContext, logOf } from '../context';
import type { Tx } from '../db/tables';
import { HttpError, invalid, notFound } from '../http/errors';
import { announce, event, heldAnnouncements, sessionEvents } from '../realtime/announce';
import * as repository from '../repositories/treatments';
import { userDisplayName } from '../repositories/people';
import { removeUnreferenced } from '../storage';
import { audit } from './audit';
import { notify } from './notifications';
import { patientLabel } from './patients';
import { planStatusOf } from './plan-status';
import { insertPlanChange } from '../repositories/plan-changes';
import { treatmentFolder } from './treatments';

// Control characters have no place in a free text (NUL cannot even be stored); line breaks may stay.
// eslint-disable-next-line no-control-regex
const TEXT_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The lock message ('…locked because the issue was reported'): a reported session takes no change until the report is withdrawn. */
export const sessionLocked = () => new HttpError(423, 'treatment.locked', 'treatment.locked');

/** The session row, locked for the rest of the transaction; 404 outside the actor's clinic or active patients. */
async function lockedRow(tx: Tx, actor: Actor, treatmentId: string) {
  const row = await repository.lockActiveTreatment(tx, actor.clinicId, treatmentId);
  if (!row) throw notFound();
  return row;
}

/**
 * A change that the session's lock forbids (the plan steps, sign-off): 404 outside the actor's reach, the
 * lock message for a reported session. Called before any such change is looked at.
 */
export async function assertChangeable(ctx: AppContext, actor: Actor, treatmentId: string): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const row = await lockedRow(tx, actor, treatmentId);
    if (row.locked) throw sessionLocked();
  });
}

/** "Adjust description" of a session: trimmed; blank or null clears it. */
export async function updateTreatmentDetails(ctx: AppContext, actor: Actor, treatmentId: string, update: TreatmentUpdate) {
  const { description } = update;
  const text = description === null ? null : description.trim() || null;
  if (text !== null && TEXT_FORBIDDEN.test(text)) throw invalid({ description: ['validation.invalid'] });
  const changed = await ctx.db.transaction().execute(async (tx) => {
    const row = await lockedRow(tx, actor, treatmentId);
    if (row.locked) throw sessionLocked();
    await repository.setDescription(tx, row.id, text, ctx.clock.now());
    await audit(tx, actor, { action: 'treatment.updated', outcome: 'success', targetType: 'treatment', targetId: row.id });
    return row;
  });
  announce(ctx, [event('treatment.modified', actor.clinicId, { patientId: changed.patient_id, treatmentId: changed.id })]);
  return changed;
}

/**
 * Deletes a session with its rows (images, issue report and jobs go with it). A locked session stays: its
 * report is the record of what went wrong. A session still being processed may go: its job is removed in the
 * same transaction, and a worker that is just finishing it loses its claim and discards what it wrote.
 * The session's files go after the commit, so a failed deletion never leaves a session without its files.
 */
export async function deleteSession(ctx: AppContext, actor: Actor, treatmentId: string): Promise<void> {
  const deleted = await ctx.db.transaction().execute(async (tx) => {
    const row = await lockedRow(tx, actor, treatmentId);
    if (row.locked) throw sessionLocked();
    await repository.deleteTreatment(tx, actor.clinicId, row.id);
    await audit(tx, actor, { action: 'treatment.deleted', outcome: 'success', targetType: 'treatment', targetId: row.id, detail: { patientId: row.patient_id } });
    return row;
  });
  announce(ctx, sessionEvents('treatment.modified', { clinicId: actor.clinicId, patientId: deleted.patient_id, treatmentId: deleted.id }));
  const folder = `${actor.clinicId}/${treatmentFolder(deleted.patient_id, deleted.id)}`;
  await removeUnreferenced(logOf(ctx), `the deleted session's folder ${folder}`, () => ctx.files.removePrefix(folder));
}

/**
 * "Report issue": records why, locks the session until the report is withdrawn, and tells those who must act on
 * it: the clinic's IT admins (they look after the devices and take the matter to the manufacturer's service) and
 * the staff member who uploaded the exam, unless they reported it themselves (it is their exam that has to be
 * taken again). A session has one open report at most (409 while it has one).
 */
export async function reportIssue(ctx: AppContext, actor: Actor, treatmentId: string, input: IssueReportInput) {
  const reason = input.reason.trim();
  if (!reason) throw invalid({ reason: ['validation.required'] });
  if (TEXT_FORBIDDEN.test(reason)) throw invalid({ reason: ['validation.invalid'] });
  const notifications = heldAnnouncements(ctx);
  const reported = await ctx.db.transaction().execute(async (tx) => {
    const row = await lockedRow(tx, actor, treatmentId);
    if (row.locked) throw new HttpError(409, 'treatment.already_reported', 'treatment.already_reported');
    const reporterName = (await userDisplayName(tx, actor.userId)) ?? '';
    const now = ctx.clock.now();
    await repository.insertIssueReport(tx, { clinicId: actor.clinicId, treatmentId: row.id, reason, reportedBy: actor.userId, reportedByName: reporterName, at: now });
    const locked = await repository.lockTreatment(tx, row.id, now);
    // The plan's audit trail ends with the report (the plan itself is unchanged: same revision).
    await insertPlanChange(tx, { treatmentId: row.id, at: now, by: { id: actor.userId, name: reporterName }, action: 'issue_reported', step: locked.step, revision: locked.plan_revision, details: { reason } });

    // `patientId` lets the erasure of the patient blank the name and the reason in these notifications.
    const params = { reporter: reporterName, number: row.number, patient: patientLabel(row), reason, patientId: row.patient_id };
    const inTx = { ...notifications.ctx, db: tx };
    // IT admins open no clinical records: they learn who reported which session, not the patient's name or the
    // clinical reason, and the link leads to the patient's entry in the admin patient list (issue 30), by id.
    await notify(inTx, {
      clinicId: actor.clinicId,
      to: { role: 'clinic_it_admins' },
      event: 'issue_reported',
      params: { reporter: reporterName, number: row.number, patientId: row.patient_id, audience: 'it_admin' },
      link: adminListLink(row.patient_id),
    });
    if (row.created_by && row.created_by !== actor.userId) {
      const uploader = await repository.uploaderOf(tx, row.created_by);
      // An uploader who has become an IT admin since was told above already.
      if (uploader && uploader.role !== 'clinic_it_admins') {
        await notify(inTx, {
          clinicId: actor.clinicId,
          to: { userIds: [row.created_by] },
          event: 'issue_reported',
          params,
          link: `/physician/patient-card?patientId=${row.patient_id}`,
        });
      }
    }
    await audit(tx, actor, { action: 'treatment.issue_reported', outcome: 'success', targetType: 'treatment', targetId: row.id, detail: { patientId: row.patient_id } });
    return row;
  });
  announce(ctx, sessionEvents('treatment.locked', { clinicId: actor.clinicId, patientId: reported.patient_id, treatmentId: reported.id }));
  notifications.release();
  return reported;
}

/** The patient's entry in the IT admin's patient list, named by id: the name stays out of the address. */
const adminListLink = (patientId: string) => `/admin/patient-list/active?patientId=${patientId}`;

/** Who was told of a report is told of its withdrawal: the IT admins, and the uploader unless they reported it. */
async function notifyWithdrawal(
  ctx: AppContext,
  actor: Actor,
  row: { id: string; patient_id: string; number: number; created_by: string | null },
  names: { reporter: string; withdrawer: string; reportedBy: string | null; patient: string },
) {
  await notify(ctx, {
    clinicId: actor.clinicId,
    to: { role: 'clinic_it_admins' },
    event: 'issue_report_withdrawn',
    params: { withdrawer: names.withdrawer, reporter: names.reporter, number: row.number, patientId: row.patient_id, audience: 'it_admin' },
    link: adminListLink(row.patient_id),
    except: actor.userId,
  });
  if (!row.created_by || row.created_by === names.reportedBy) return;
  const uploader = await repository.uploaderOf(ctx.db, row.created_by);
  if (!uploader || uploader.role === 'clinic_it_admins') return;
  await notify(ctx, {
    clinicId: actor.clinicId,
    to: { userIds: [row.created_by] },
    event: 'issue_report_withdrawn',
    params: { withdrawer: names.withdrawer, reporter: names.reporter, number: row.number, patient: names.patient, patientId: row.patient_id },
    link: `/physician/patient-card?patientId=${row.patient_id}`,
    except: actor.userId,
  });
}

/**
 * "Withdraw report" (physicians and IT admins), for a report made by mistake. In one transaction: the open report
 * is marked withdrawn (it stays on record), the session is unlocked, so its plan status is again what its step
 * and processing say (a signed-off plan's parameter set is served again), and the plan's trail and the access log
 * say so. Those told of the report are told of the withdrawal. 409 when the session has no open report.
 */
export async function withdrawIssueReport(ctx: AppContext, actor: Actor, treatmentId: string) {
  const notifications = heldAnnouncements(ctx);
  const withdrawn = await ctx.db.transaction().execute(async (tx) => {
    const row = await lockedRow(tx, actor, treatmentId);
    const withdrawerName = (await userDisplayName(tx, actor.userId)) ?? '';
    const now = ctx.clock.now();
    const report = await repository.withdrawIssueReport(tx, row.id, { id: actor.userId, name: withdrawerName }, now);
    if (!report) throw new HttpError(409, 'treatment.no_issue_report', 'treatment.no_issue_report');
    const unlocked = await repository.unlockTreatment(tx, row.id, now);
    await insertPlanChange(tx, {
      treatmentId: row.id,
      at: now,
      by: { id: actor.userId, name: withdrawerName },
      action: 'issue_report_withdrawn',
      step: unlocked.step,
      revision: unlocked.plan_revision,
      details: { reportedBy: report.reported_by_name },
    });
    await notifyWithdrawal({ ...notifications.ctx, db: tx }, actor, row, {
      reporter: report.reported_by_name,
      withdrawer: withdrawerName,
      reportedBy: report.reported_by,
      patient: patientLabel(row),
    });
    await audit(tx, actor, { action: 'treatment.issue_report_withdrawn', outcome: 'success', targetType: 'treatment', targetId: row.id, detail: { patientId: row.patient_id } });
    return { row, unlocked, at: now };
  });
  announce(ctx, sessionEvents('treatment.modified', { clinicId: actor.clinicId, patientId: withdrawn.row.patient_id, treatmentId: withdrawn.row.id }));
  notifications.release();
  return {
    treatmentId: withdrawn.row.id,
    patientId: withdrawn.row.patient_id,
    number: withdrawn.row.number,
    locked: false,
    planStatus: planStatusOf(withdrawn.unlocked),
    withdrawnAt: withdrawn.at.toISOString(),
  };
}
