// The queries of an exam's way in: the upload (the file's patient matched or added, a file already kept, the
// session added with the next number) and its processing (state, images, results). Each takes the database or
// the transaction its service opened. No rules here: services/exam-upload.ts and services/exam-processing.ts.
import type { Insertable } from 'kysely';
import type { PatientRow, Queryable, StoredPlan, TreatmentRow, TreatmentsTable } from '../db/tables';

// ---------------------------------------------------------------------------------------------------
// Upload.

/** One of the clinic's active patients, whole (the patient an upload was made for). */
export async function activePatient(db: Queryable, clinicId: string, id: string): Promise<PatientRow | null> {
  return (
    (await db
      .selectFrom('patients')
      .selectAll()
      .where('clinic_id', '=', clinicId)
      .where('id', '=', id)
      .where('status', '=', 'active')
      .executeTakeFirst()) ?? null
  );
}

/**
 * The clinic's active patients who may be a file's patient, oldest first: those with its device patient id, and
 * those born on its birthday who have no device patient id.
 */
export function filePatientCandidates(db: Queryable, clinicId: string, file: { deviceSideId: string; birthday: string }): Promise<PatientRow[]> {
  return db
    .selectFrom('patients')
    .selectAll()
    .where('clinic_id', '=', clinicId)
    .where('status', '=', 'active')
    .where((eb) =>
      eb.or([
        eb('device_patient_id', '=', file.deviceSideId),
        eb.and([eb('birthday', '=', file.birthday), eb('device_patient_id', 'is', null)]),
      ]),
    )
    .orderBy('created_at')
    .execute();
}

/** The clinic's session kept from the file with this SHA-256, with its patient's name. */
export function sessionOfFile(db: Queryable, clinicId: string, sha256: string) {
  return db
    .selectFrom('treatments as t')
    .innerJoin('patients as p', 'p.id', 't.patient_id')
    .select(['t.id', 't.patient_id', 't.number', 'p.name', 'p.second_name'])
    .where('t.clinic_id', '=', clinicId)
    .where('t.file_sha256', '=', sha256)
    .executeTakeFirst();
}

/** Gives the patient this device patient id, unless they have one already. */
export async function setMissingDevicePatientId(db: Queryable, patientId: string, devicePatientId: string, at: Date): Promise<void> {
  await db
    .updateTable('patients')
    .set({ device_patient_id: devicePatientId, updated_at: at })
    .where('id', '=', patientId)
    .where('device_patient_id', 'is', null)
    .execute();
}

/** The highest session number of the patient; 0 before their first session. */
export async function highestSessionNumber(db: Queryable, patientId: string): Promise<number> {
  const { highest } = await db
    .selectFrom('treatments')
    .select((eb) => eb.fn.coalesce(eb.fn.max('number'), eb.lit(0)).as('highest'))
    .where('patient_id', '=', patientId)
    .executeTakeFirstOrThrow();
  return Number(highest);
}

/** Adds a session; the row as stored. */
export function insertTreatment(db: Queryable, values: Insertable<TreatmentsTable>): Promise<TreatmentRow> {
  return db.insertInto('treatments').values(values).returningAll().executeTakeFirstOrThrow();
}

// ---------------------------------------------------------------------------------------------------
// Processing.

/** An uploaded session's processing has begun (unless it had already). */
export async function markProcessing(db: Queryable, treatmentId: string, at: Date): Promise<void> {
  await db
    .updateTable('treatments')
    .set({ processing_state: 'processing', updated_at: at })
    .where('id', '=', treatmentId)
    .where('processing_state', '=', 'file_uploaded')
    .execute();
}

/** The session's processing failed with this message (code and parameters). */
export async function markProcessingFailed(db: Queryable, treatmentId: string, code: string, params: Record<string, string | number>, at: Date): Promise<void> {
  await db
    .updateTable('treatments')
    .set({ processing_state: 'failed', error_code: code, error_params: JSON.stringify(params), error_message: null, updated_at: at })
    .where('id', '=', treatmentId)
    .execute();
}

export interface ProcessedImage {
  role: string;
  entry: string;
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
  displayPath: string;
  thumbnailPath: string;
}

/** The session's images are these and no others. */
export async function replaceTreatmentImages(
  db: Queryable,
  treatment: { id: string; clinicId: string },
  images: ProcessedImage[],
  at: Date,
): Promise<void> {
  await db.deleteFrom('treatment_images').where('treatment_id', '=', treatment.id).execute();
  await db
    .insertInto('treatment_images')
    .values(
      images.map((image) => ({
        clinic_id: treatment.clinicId,
        treatment_id: treatment.id,
        role: image.role,
        entry: image.entry,
        width: image.width,
        height: image.height,
        original_width: image.originalWidth,
        original_height: image.originalHeight,
        display_path: image.displayPath,
        thumbnail_path: image.thumbnailPath,
        created_at: at,
      })),
    )
    .execute();
}

/** The session is processed: its proposed plan and what the detector found, any earlier error cleared. */
export async function markProcessed(db: Queryable, treatmentId: string, plan: StoredPlan, detection: Record<string, unknown>, at: Date): Promise<void> {
  await db
    .updateTable('treatments')
    .set({
      processing_state: 'processed',
      plan: JSON.stringify(plan),
      detection: JSON.stringify(detection),
      error_code: null,
      error_params: null,
      updated_at: at,
    })
    .where('id', '=', treatmentId)
    .execute();
}
