// The queries of sessions (treatments): the session of an active patient, its images and issue report, and
// the changes the patient card makes. Each takes the database or the transaction its service opened.
import type { Queryable, TreatmentImageRow, TreatmentRow } from '../db/tables';

/** A session by id alone, whoever's it is (the background jobs act for the system). */
export function treatmentById(db: Queryable, treatmentId: string): Promise<TreatmentRow | undefined> {
  return db.selectFrom('treatments').selectAll().where('id', '=', treatmentId).executeTakeFirst();
}

/**
 * A session of one of the clinic's active patients (archived or deleting patients are out of reach); with `lock`,
 * its row locked for the rest of the transaction (a change to its plan).
 */
export function activeTreatmentRow(db: Queryable, clinicId: string, id: string, options: { lock?: boolean } = {}): Promise<TreatmentRow | undefined> {
  return db
    .selectFrom('treatments as t')
    .innerJoin('patients as p', 'p.id', 't.patient_id')
    .selectAll('t')
    .where('t.clinic_id', '=', clinicId)
    .where('t.id', '=', id)
    .where('p.status', '=', 'active')
    .$if(options.lock === true, (query) => query.forUpdate('t'))
    .executeTakeFirst();
}

/** The session row with its patient's name, locked for the rest of the transaction. */
export function lockActiveTreatment(tx: Queryable, clinicId: string, id: string) {
  return tx
    .selectFrom('treatments as t')
    .innerJoin('patients as p', 'p.id', 't.patient_id')
    .select(['t.id', 't.patient_id', 't.number', 't.locked', 't.created_by', 'p.name', 'p.second_name'])
    .where('t.clinic_id', '=', clinicId)
    .where('t.id', '=', id)
    .where('p.status', '=', 'active')
    .forUpdate('t')
    .executeTakeFirst();
}

/** A session's images in the order the file lists them. */
export function treatmentImages(db: Queryable, treatmentId: string): Promise<TreatmentImageRow[]> {
  return db.selectFrom('treatment_images').selectAll().where('treatment_id', '=', treatmentId).orderBy('created_at').orderBy('entry').execute();
}

/** The fundus image of each session (the one the plan refers to and the thumbnail shows). */
export async function fundusImageIds(db: Queryable, treatmentIds: string[]): Promise<Map<string, string>> {
  if (!treatmentIds.length) return new Map();
  const rows = await db.selectFrom('treatment_images').select(['id', 'treatment_id']).where('treatment_id', 'in', treatmentIds).where('role', '=', 'fundus').execute();
  return new Map(rows.map((row) => [row.treatment_id, row.id]));
}

/** The stored files of one of the clinic's session images. */
export function imagePaths(db: Queryable, clinicId: string, treatmentId: string, imageId: string) {
  return db
    .selectFrom('treatment_images')
    .select(['display_path', 'thumbnail_path'])
    .where('clinic_id', '=', clinicId)
    .where('treatment_id', '=', treatmentId)
    .where('id', '=', imageId)
    .executeTakeFirst();
}

/** The session's open issue report (not withdrawn); a session has at most one. */
export function issueReport(db: Queryable, treatmentId: string) {
  return db
    .selectFrom('treatment_issue_reports')
    .select(['id', 'reason', 'reported_by', 'reported_by_name', 'reported_at'])
    .where('treatment_id', '=', treatmentId)
    .where('withdrawn_at', 'is', null)
    .executeTakeFirst();
}

/** Marks the session's open report withdrawn; the report as it was, or nothing when there was none open. */
export function withdrawIssueReport(db: Queryable, treatmentId: string, by: { id: string; name: string }, at: Date) {
  return db
    .updateTable('treatment_issue_reports')
    .set({ withdrawn_at: at, withdrawn_by: by.id, withdrawn_by_name: by.name })
    .where('treatment_id', '=', treatmentId)
    .where('withdrawn_at', 'is', null)
    .returning(['id', 'reason', 'reported_by', 'reported_by_name', 'reported_at'])
    .executeTakeFirst();
}

export function uploaderOf(db: Queryable, userId: string) {
  return db.selectFrom('users').select(['id', 'role', 'first_name', 'last_name', 'physician_name']).where('id', '=', userId).executeTakeFirst();
}

export async function setDescription(db: Queryable, treatmentId: string, description: string | null, at: Date): Promise<void> {
  await db.updateTable('treatments').set({ description, updated_at: at }).where('id', '=', treatmentId).execute();
}

/** Removes a session with its rows (images, issue report, plan changes cascade) and its queued jobs. */
export async function deleteTreatment(db: Queryable, clinicId: string, treatmentId: string): Promise<void> {
  await db.deleteFrom('jobs').where('subject_id', '=', treatmentId).execute();
  await db.deleteFrom('treatments').where('clinic_id', '=', clinicId).where('id', '=', treatmentId).execute();
}

export async function insertIssueReport(
  db: Queryable,
  report: { clinicId: string; treatmentId: string; reason: string; reportedBy: string; reportedByName: string; at: Date },
): Promise<void> {
  await db
    .insertInto('treatment_issue_reports')
    .values({
      clinic_id: report.clinicId,
      treatment_id: report.treatmentId,
      reason: report.reason,
      reported_by: report.reportedBy,
      reported_by_name: report.reportedByName,
      reported_at: report.at,
    })
    .execute();
}

/** Locks a session until its report is withdrawn; its step and plan revision as they stand. */
export function lockTreatment(db: Queryable, treatmentId: string, at: Date) {
  return db.updateTable('treatments').set({ locked: true, updated_at: at }).where('id', '=', treatmentId).returning(['step', 'plan_revision']).executeTakeFirstOrThrow();
}

/** Unlocks a session whose report was withdrawn; the columns its plan status is derived from. */
export function unlockTreatment(db: Queryable, treatmentId: string, at: Date) {
  return db
    .updateTable('treatments')
    .set({ locked: false, updated_at: at })
    .where('id', '=', treatmentId)
    .returning(['step', 'plan_revision', 'processing_state', 'locked'])
    .executeTakeFirstOrThrow();
}

/** The stored display file of a session's fundus image, if it has one. */
export async function fundusDisplayPath(db: Queryable, treatmentId: string): Promise<string | undefined> {
  const image = await db
    .selectFrom('treatment_images')
    .select('display_path')
    .where('treatment_id', '=', treatmentId)
    .where('role', '=', 'fundus')
    .executeTakeFirst();
  return image?.display_path;
}
