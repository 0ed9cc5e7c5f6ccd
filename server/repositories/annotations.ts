// The queries of labelling and measuring (issue 17): the clinic's labels, the marks of an image, and the image
// with its session that a mark belongs to. Each takes the database or the transaction its service opened.
import type { MarkShape } from '../../src/domain/annotations/mark-shape';
import type { Queryable, StoredPlan } from '../db/tables';

export interface LabelRow {
  id: string;
  key: string | null;
  name_en: string | null;
  name_de: string | null;
  created_by: string | null;
  created_by_name: string | null;
  created_at: Date;
}

export interface MarkRow {
  id: string;
  image_id: string;
  /** Null for a ruler (line) without a label. */
  label_id: string | null;
  shape: MarkShape;
  note: string | null;
  version: number;
  created_by: string | null;
  created_by_name: string;
  created_at: Date;
  updated_at: Date;
}

const LABEL_FIELDS = ['id', 'key', 'name_en', 'name_de', 'created_by', 'created_by_name', 'created_at'] as const;

/** How many of the default labels (those with a key) the clinic has. */
export async function countDefaultLabels(db: Queryable, clinicId: string): Promise<number> {
  const present = await db
    .selectFrom('annotation_labels')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('clinic_id', '=', clinicId)
    .where('key', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(present.count);
}

/** Adds the default labels of these keys the clinic does not have yet (keys are unique per clinic). */
export async function insertDefaultLabels(db: Queryable, clinicId: string, keys: readonly string[]): Promise<void> {
  await db
    .insertInto('annotation_labels')
    .values(keys.map((key) => ({ clinic_id: clinicId, key })))
    .onConflict((oc) => oc.columns(['clinic_id', 'key']).doNothing())
    .execute();
}

/** The clinic's labels in the order they were added. */
export function labelRows(db: Queryable, clinicId: string): Promise<LabelRow[]> {
  return db.selectFrom('annotation_labels').select(LABEL_FIELDS).where('clinic_id', '=', clinicId).orderBy('seq').execute();
}

export function labelRow(db: Queryable, clinicId: string, labelId: string): Promise<LabelRow | undefined> {
  return db.selectFrom('annotation_labels').select(LABEL_FIELDS).where('clinic_id', '=', clinicId).where('id', '=', labelId).executeTakeFirst();
}

/** Holds the clinic's row until the transaction ends: one label is added at a time per clinic. */
export async function lockClinic(tx: Queryable, clinicId: string): Promise<void> {
  await tx.selectFrom('clinics').select('id').where('id', '=', clinicId).forUpdate().executeTakeFirstOrThrow();
}

export function insertLabel(
  db: Queryable,
  label: { clinicId: string; nameEn: string; nameDe: string; createdBy: string; createdByName: string; createdAt: Date },
): Promise<LabelRow> {
  return db
    .insertInto('annotation_labels')
    .values({
      clinic_id: label.clinicId,
      key: null,
      name_en: label.nameEn,
      name_de: label.nameDe,
      created_by: label.createdBy,
      created_by_name: label.createdByName,
      created_at: label.createdAt,
    })
    .returning(LABEL_FIELDS)
    .executeTakeFirstOrThrow();
}

/** An image of one of the clinic's sessions of an active patient, with the session's lock and plan; FOR UPDATE of the session when `lock`. */
export async function imageWithSession(db: Queryable, clinicId: string, treatmentId: string, imageId: string, lock: boolean) {
  let query = db
    .selectFrom('treatments as t')
    .innerJoin('patients as p', 'p.id', 't.patient_id')
    .innerJoin('treatment_images as i', 'i.treatment_id', 't.id')
    .select(['t.id as treatment_id', 't.patient_id', 't.locked', 't.plan', 'i.id as image_id', 'i.role', 'i.width', 'i.height'])
    .where('t.clinic_id', '=', clinicId)
    .where('t.id', '=', treatmentId)
    .where('p.status', '=', 'active')
    .where('i.id', '=', imageId)
    .where('i.clinic_id', '=', clinicId);
  if (lock) query = query.forUpdate('t');
  const row = await query.executeTakeFirst();
  return row && { ...row, plan: row.plan as StoredPlan | null };
}

/** A mark's columns as {@link MarkRow} has them: what an insert or update returns, and (as `a.…`) a list reads. */
const MARK_FIELDS = ['id', 'image_id', 'label_id', 'shape', 'note', 'version', 'created_by', 'created_by_name', 'created_at', 'updated_at'] as const;
const MARK_COLUMNS = MARK_FIELDS.map((field) => `a.${field}` as const);
const LABEL_COLUMNS = ['l.key', 'l.name_en', 'l.name_de', 'l.created_by as label_created_by', 'l.created_by_name as label_created_by_name', 'l.created_at as label_created_at'] as const;

/** The marks of an image (or one of them), in the order they were placed, each with its label (null for a ruler without one). */
export async function markRows(db: Queryable, clinicId: string, imageId: string, annotationId?: string): Promise<{ mark: MarkRow; label: LabelRow | null }[]> {
  let query = db
    .selectFrom('annotations as a')
    .leftJoin('annotation_labels as l', 'l.id', 'a.label_id')
    .select([...MARK_COLUMNS, ...LABEL_COLUMNS])
    .where('a.clinic_id', '=', clinicId)
    .where('a.image_id', '=', imageId);
  if (annotationId) query = query.where('a.id', '=', annotationId);
  const rows = await query.orderBy('a.seq').execute();
  return rows.map((row) => ({
    mark: row as MarkRow,
    label: row.label_id === null ? null : {
      id: row.label_id,
      key: row.key,
      name_en: row.name_en,
      name_de: row.name_de,
      created_by: row.label_created_by,
      created_by_name: row.label_created_by_name,
      created_at: row.label_created_at as Date,
    },
  }));
}

export async function countMarks(db: Queryable, imageId: string): Promise<number> {
  const count = await db
    .selectFrom('annotations')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('image_id', '=', imageId)
    .executeTakeFirstOrThrow();
  return Number(count.count);
}

export async function insertMark(
  db: Queryable,
  mark: { clinicId: string; treatmentId: string; imageId: string; labelId: string | null; shape: MarkShape; note: string | null; createdBy: string; createdByName: string; at: Date },
): Promise<MarkRow> {
  const row = await db
    .insertInto('annotations')
    .values({
      clinic_id: mark.clinicId,
      treatment_id: mark.treatmentId,
      image_id: mark.imageId,
      label_id: mark.labelId,
      shape: JSON.stringify(mark.shape),
      note: mark.note,
      created_by: mark.createdBy,
      created_by_name: mark.createdByName,
      created_at: mark.at,
      updated_at: mark.at,
    })
    .returning(MARK_FIELDS)
    .executeTakeFirstOrThrow();
  return row as MarkRow;
}

/** Writes a mark's shape, label and note and raises its version. */
export async function updateMarkRow(db: Queryable, markId: string, change: { shape: MarkShape; labelId: string | null; note: string | null; at: Date }): Promise<MarkRow> {
  const row = await db
    .updateTable('annotations')
    .set((eb) => ({ shape: JSON.stringify(change.shape), label_id: change.labelId, note: change.note, version: eb('version', '+', 1), updated_at: change.at }))
    .where('id', '=', markId)
    .returning(MARK_FIELDS)
    .executeTakeFirstOrThrow();
  return row as MarkRow;
}

/** Removes a mark of the clinic's image; its shape, or undefined when there was none. */
export async function deleteMarkRow(db: Queryable, clinicId: string, imageId: string, markId: string): Promise<MarkShape | undefined> {
  const removed = await db
    .deleteFrom('annotations')
    .where('id', '=', markId)
    .where('image_id', '=', imageId)
    .where('clinic_id', '=', clinicId)
    .returning('shape')
    .executeTakeFirst();
  return removed?.shape as MarkShape | undefined;
}
