// Labelling and measuring on the fundus images of a session (issue 17): the clinic's labels and the marks of
// each image. Services without HTTP: they take the database, the clock and the acting user. Shapes are checked
// and measured by src/domain/annotations; every change reads the session FOR UPDATE first, so a change and an
// issue report racing each other cannot both win (a locked session takes no change). Each change is announced
// to the clinic's screens once committed.
import type { Transaction } from 'kysely';
import type { Annotation } from '../../generated/model/annotation';
import type { AnnotationInput } from '../../generated/model/annotationInput';
import type { AnnotationLabel } from '../../generated/model/annotationLabel';
import type { AnnotationLabelInput } from '../../generated/model/annotationLabelInput';
import type { AnnotationList } from '../../generated/model/annotationList';
import type { AnnotationUpdate } from '../../generated/model/annotationUpdate';
import {
  DEFAULT_LABEL_KEYS,
  clashesWith,
  isDefaultLabelKey,
  labelName,
  labelNames,
  markNote,
  MAX_LABELS_PER_CLINIC,
  MAX_MARKS_PER_IMAGE,
  type TextProblem,
} from '../../src/domain/annotations/labels';
import { checkMarkShape, type MarkShape } from '../../src/domain/annotations/mark-shape';
import { type MarkMeasurement, type MarkScale, markScale, measureMark } from '../../src/domain/annotations/measure';
import type { AppContext } from '../context';
import type { Database, StoredPlan, Tables } from '../db/tables';
import { conflict, HttpError, invalid, notFound } from '../http/errors';
import { type Lang, type MessageKey, translate } from '../i18n';
import { announce, event } from '../realtime/announce';
import { displayName } from './people';
import { sessionLocked } from './treatment-changes';

export interface AnnotationActor {
  userId: string;
  clinicId: string;
}

type Tx = Transaction<Tables>;
type Db = Database | Tx;

interface LabelRow {
  id: string;
  key: string | null;
  name_en: string | null;
  name_de: string | null;
  created_by: string | null;
  created_by_name: string | null;
  created_at: Date;
}

interface MarkRow {
  id: string;
  image_id: string;
  label_id: string;
  shape: MarkShape;
  note: string | null;
  version: number;
  created_by: string | null;
  created_by_name: string;
  created_at: Date;
  updated_at: Date;
}

/** The image a mark is on, with what the marks need of its session. */
interface ImageOfSession {
  treatmentId: string;
  patientId: string;
  locked: boolean;
  image: { id: string; role: string; width: number; height: number };
  scale: MarkScale | null;
}

// ---- Labels ----

/** A label's names: a default's from the locale files, the clinic's own as stored. */
function namesOf(row: Pick<LabelRow, 'key' | 'name_en' | 'name_de'>): { en: string; de: string } {
  if (row.key !== null && isDefaultLabelKey(row.key)) {
    const key = `annotation_label.default.${row.key}` as MessageKey;
    return { en: translate('en', key), de: translate('de', key) };
  }
  return { en: row.name_en ?? '', de: row.name_de ?? row.name_en ?? '' };
}

function toLabel(row: LabelRow, lang: Lang): AnnotationLabel {
  const names = namesOf(row);
  return {
    id: row.id,
    key: row.key !== null && isDefaultLabelKey(row.key) ? row.key : null,
    name: names[lang],
    names,
    createdAt: new Date(row.created_at).toISOString(),
    // The adder as named then; the id stays even when the account is gone (as with issue reports).
    createdBy: row.created_by_name === null ? null : { id: row.created_by ?? row.id, name: row.created_by_name },
  };
}

const defaultsFirst = (a: LabelRow, b: LabelRow) => {
  const rank = (row: LabelRow) => (row.key === null ? DEFAULT_LABEL_KEYS.length : (DEFAULT_LABEL_KEYS as readonly string[]).indexOf(row.key));
  return rank(a) - rank(b);
};

/**
 * The eight default labels of a clinic, written the first time its labels are needed (clinics created before
 * labelling existed, and new ones alike). Concurrent first calls insert once: the keys are unique per clinic.
 */
async function ensureDefaultLabels(db: Db, clinicId: string): Promise<void> {
  const present = await db
    .selectFrom('annotation_labels')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('clinic_id', '=', clinicId)
    .where('key', 'is not', null)
    .executeTakeFirstOrThrow();
  if (Number(present.count) >= DEFAULT_LABEL_KEYS.length) return;
  await db
    .insertInto('annotation_labels')
    .values(DEFAULT_LABEL_KEYS.map((key) => ({ clinic_id: clinicId, key })))
    .onConflict((oc) => oc.columns(['clinic_id', 'key']).doNothing())
    .execute();
}

async function labelRows(db: Db, clinicId: string): Promise<LabelRow[]> {
  await ensureDefaultLabels(db, clinicId);
  const rows = await db
    .selectFrom('annotation_labels')
    .select(['id', 'key', 'name_en', 'name_de', 'created_by', 'created_by_name', 'created_at'])
    .where('clinic_id', '=', clinicId)
    .orderBy('seq')
    .execute();
  // Defaults in their fixed order, then the clinic's own in the order they were added (the sort is stable).
  return rows.sort(defaultsFirst);
}

export async function listLabels(db: Database, clinicId: string, lang: Lang): Promise<AnnotationLabel[]> {
  return (await labelRows(db, clinicId)).map((row) => toLabel(row, lang));
}

const TEXT_PROBLEM_KEYS: Record<TextProblem, MessageKey> = {
  required: 'validation.required',
  too_long: 'validation.too_long',
  invalid_characters: 'annotation_label.name_invalid',
};

/** A label the clinic adds: named in one language or both, unique in either, at most 200 per clinic. */
export async function createLabel(ctx: AppContext, actor: AnnotationActor, input: AnnotationLabelInput, lang: Lang): Promise<AnnotationLabel> {
  const given: { nameEn: string | null; nameDe: string | null } = { nameEn: null, nameDe: null };
  const problems: Record<string, MessageKey[]> = {};
  for (const field of ['nameEn', 'nameDe'] as const) {
    const raw = input[field];
    if (raw === undefined) continue;
    const name = labelName(raw);
    if (name.ok) given[field] = name.value;
    else problems[field] = [TEXT_PROBLEM_KEYS[name.problem]];
  }
  if (Object.keys(problems).length) throw invalid(problems);
  const names = labelNames(given.nameEn, given.nameDe);
  if (!names) throw invalid({ nameEn: ['validation.required'], nameDe: ['validation.required'] });

  const created = await ctx.db.transaction().execute(async (tx) => {
    // One label added at a time per clinic: the count and the names are checked against what is committed.
    await tx.selectFrom('clinics').select('id').where('id', '=', actor.clinicId).forUpdate().executeTakeFirstOrThrow();
    const existing = await labelRows(tx, actor.clinicId);
    if (existing.length >= MAX_LABELS_PER_CLINIC) throw conflict('annotation_label.too_many', 'annotation_label.too_many', { max: MAX_LABELS_PER_CLINIC });
    if (clashesWith(names, existing.map(namesOf))) throw conflict('annotation_label.duplicate', 'annotation_label.duplicate');
    return tx
      .insertInto('annotation_labels')
      .values({
        clinic_id: actor.clinicId,
        key: null,
        name_en: names.en,
        name_de: names.de,
        created_by: actor.userId,
        created_by_name: await actorName(tx, actor),
        created_at: ctx.clock.now(),
      })
      .returning(['id', 'key', 'name_en', 'name_de', 'created_by', 'created_by_name', 'created_at'])
      .executeTakeFirstOrThrow();
  });
  announce(ctx, [event('annotation-labels.changed', actor.clinicId, { labelIds: [created.id] })]);
  return toLabel(created, lang);
}

async function actorName(db: Db, actor: AnnotationActor): Promise<string> {
  const user = await db
    .selectFrom('users')
    .select(['first_name', 'last_name', 'physician_name'])
    .where('id', '=', actor.userId)
    .executeTakeFirstOrThrow();
  return displayName(user);
}

// ---- Marks ----

/**
 * An image of one of the clinic's sessions (of an active patient), with the scale its marks are measured at:
 * the plan's, on the session's fundus image only (the plan's coordinates and scale refer to it; an infrared or
 * red-free image's pixel size is not known). 404 otherwise. Within a transaction the session row stays locked.
 */
async function imageOfSession(db: Db, clinicId: string, treatmentId: string, imageId: string, lock: boolean): Promise<ImageOfSession> {
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
  if (!row) throw notFound();
  const plan = row.plan as StoredPlan | null;
  return {
    treatmentId: row.treatment_id,
    patientId: row.patient_id,
    locked: row.locked,
    image: { id: row.image_id, role: row.role, width: row.width, height: row.height },
    scale: row.role === 'fundus' ? markScale(plan?.scale, plan?.opticDisc) : null,
  };
}

function toAnnotation(row: MarkRow, label: LabelRow, scale: MarkScale | null, lang: Lang): Annotation {
  return {
    id: row.id,
    imageId: row.image_id,
    shape: row.shape,
    labelId: row.label_id,
    label: namesOf(label)[lang],
    note: row.note,
    measurement: measureMark(row.shape, scale),
    createdAt: new Date(row.created_at).toISOString(),
    // The author as named then; the id stays even when the account is gone (as with issue reports).
    createdBy: { id: row.created_by ?? row.id, name: row.created_by_name },
    updatedAt: new Date(row.updated_at).toISOString(),
    version: row.version,
  };
}

/** A mark's columns as {@link MarkRow} has them: what an insert or update returns, and (as `a.…`) a list reads. */
const MARK_FIELDS = ['id', 'image_id', 'label_id', 'shape', 'note', 'version', 'created_by', 'created_by_name', 'created_at', 'updated_at'] as const;
const MARK_COLUMNS = MARK_FIELDS.map((field) => `a.${field}` as const);
const LABEL_COLUMNS = ['l.key', 'l.name_en', 'l.name_de', 'l.created_by as label_created_by', 'l.created_by_name as label_created_by_name', 'l.created_at as label_created_at'] as const;

async function markRows(db: Db, clinicId: string, imageId: string, annotationId?: string) {
  let query = db
    .selectFrom('annotations as a')
    .innerJoin('annotation_labels as l', 'l.id', 'a.label_id')
    .select([...MARK_COLUMNS, ...LABEL_COLUMNS])
    .where('a.clinic_id', '=', clinicId)
    .where('a.image_id', '=', imageId);
  if (annotationId) query = query.where('a.id', '=', annotationId);
  const rows = await query.orderBy('a.seq').execute();
  return rows.map((row) => ({
    mark: row as MarkRow,
    label: {
      id: row.label_id,
      key: row.key,
      name_en: row.name_en,
      name_de: row.name_de,
      created_by: row.label_created_by,
      created_by_name: row.label_created_by_name,
      created_at: row.label_created_at,
    } satisfies LabelRow,
  }));
}

/** The marks of an image, in the order they were placed, with the scale they are measured at. */
export async function listMarks(db: Database, actor: AnnotationActor, treatmentId: string, imageId: string, lang: Lang): Promise<AnnotationList> {
  const target = await imageOfSession(db, actor.clinicId, treatmentId, imageId, false);
  const rows = await markRows(db, actor.clinicId, imageId);
  return {
    treatmentId: target.treatmentId,
    imageId: target.image.id,
    locked: target.locked,
    scale: target.scale,
    annotations: rows.map(({ mark, label }) => toAnnotation(mark, label, target.scale, lang)),
  };
}

export interface ReportMark {
  id: string;
  /** In pixels of the image's display version, origin top-left, y down. */
  shape: MarkShape;
  /** The label's name in the report's language. */
  label: string;
  note: string | null;
  /** Null for a point, and without a scale. */
  measurement: MarkMeasurement | null;
}

/**
 * What a treatment report shows of an image's marks: shapes in pixels, label texts, and the figures with the
 * scale they were measured at (its source belongs beside every figure). 404 as the API answers.
 */
export async function listMarksForReport(
  db: Database,
  clinicId: string,
  treatmentId: string,
  imageId: string,
  lang: Lang,
): Promise<{ scale: MarkScale | null; marks: ReportMark[] }> {
  const target = await imageOfSession(db, clinicId, treatmentId, imageId, false);
  const rows = await markRows(db, clinicId, imageId);
  return {
    scale: target.scale,
    marks: rows.map(({ mark, label }) => ({
      id: mark.id,
      shape: mark.shape,
      label: namesOf(label)[lang],
      note: mark.note,
      measurement: measureMark(mark.shape, target.scale),
    })),
  };
}

/** A shape the image cannot take: 422 with the reason as code and the field it is about. */
function checkShape(shape: MarkShape, image: ImageOfSession['image']): void {
  const problem = checkMarkShape(shape, image);
  if (problem) throw new HttpError(422, problem.code, problem.code, {}, { [problem.field]: [problem.code] });
}

async function checkLabel(db: Db, clinicId: string, labelId: string): Promise<LabelRow> {
  await ensureDefaultLabels(db, clinicId);
  const label = await db
    .selectFrom('annotation_labels')
    .select(['id', 'key', 'name_en', 'name_de', 'created_by', 'created_by_name', 'created_at'])
    .where('clinic_id', '=', clinicId)
    .where('id', '=', labelId)
    .executeTakeFirst();
  if (!label) throw new HttpError(422, 'annotation.label_unknown', 'annotation.label_unknown', {}, { labelId: ['annotation.label_unknown'] });
  return label;
}

function checkNote(raw: string | null | undefined): string | null {
  const note = markNote(raw);
  if (note.ok) return note.value;
  if (note.problem === 'invalid_characters') throw new HttpError(422, 'annotation.note_invalid', 'annotation.note_invalid', {}, { note: ['annotation.note_invalid'] });
  throw invalid({ note: ['validation.too_long'] });
}

/** The shape as stored: the contract's fields only, in their order. */
function storedShape(shape: MarkShape): MarkShape {
  const point = ({ x, y }: { x: number; y: number }) => ({ x, y });
  switch (shape.kind) {
    case 'point':
      return { kind: 'point', at: point(shape.at) };
    case 'line':
      return { kind: 'line', start: point(shape.start), end: point(shape.end) };
    case 'circle':
      return { kind: 'circle', center: point(shape.center), radiusPx: shape.radiusPx };
    case 'polygon':
      return { kind: 'polygon', points: shape.points.map(point) };
  }
}

export interface MarkChange {
  annotation: Annotation;
  patientId: string;
}

const announceMarks = (ctx: AppContext, actor: AnnotationActor, target: ImageOfSession) =>
  announce(ctx, [event('annotations.changed', actor.clinicId, { patientId: target.patientId, treatmentId: target.treatmentId, imageId: target.image.id })]);

/** Places a mark: 404, 423 on a locked session, 422 for a shape, label or note the image cannot take, 409 at 500 marks. */
export async function createMark(
  ctx: AppContext,
  actor: AnnotationActor,
  treatmentId: string,
  imageId: string,
  input: AnnotationInput,
  lang: Lang,
): Promise<MarkChange> {
  const { target, annotation } = await ctx.db.transaction().execute(async (tx) => {
    const target = await imageOfSession(tx, actor.clinicId, treatmentId, imageId, true);
    if (target.locked) throw sessionLocked();
    const shape = storedShape(input.shape as MarkShape);
    checkShape(shape, target.image);
    const label = await checkLabel(tx, actor.clinicId, input.labelId);
    const note = checkNote(input.note);
    const count = await tx
      .selectFrom('annotations')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('image_id', '=', target.image.id)
      .executeTakeFirstOrThrow();
    if (Number(count.count) >= MAX_MARKS_PER_IMAGE) throw conflict('annotation.too_many', 'annotation.too_many', { max: MAX_MARKS_PER_IMAGE });
    const now = ctx.clock.now();
    const row = await tx
      .insertInto('annotations')
      .values({
        clinic_id: actor.clinicId,
        treatment_id: target.treatmentId,
        image_id: target.image.id,
        label_id: label.id,
        shape: JSON.stringify(shape),
        note,
        created_by: actor.userId,
        created_by_name: await actorName(tx, actor),
        created_at: now,
        updated_at: now,
      })
      .returning(MARK_FIELDS)
      .executeTakeFirstOrThrow();
    return { target, annotation: toAnnotation(row as MarkRow, label, target.scale, lang) };
  });
  announceMarks(ctx, actor, target);
  return { annotation, patientId: target.patientId };
}

/**
 * Moves, relabels or re-notes a mark from the version the user saw: 409 `annotation.stale` with the mark as it
 * is now when someone else changed it meanwhile.
 */
export async function updateMark(
  ctx: AppContext,
  actor: AnnotationActor,
  treatmentId: string,
  imageId: string,
  annotationId: string,
  update: AnnotationUpdate,
  lang: Lang,
): Promise<MarkChange> {
  const { target, annotation } = await ctx.db.transaction().execute(async (tx) => {
    const target = await imageOfSession(tx, actor.clinicId, treatmentId, imageId, true);
    if (target.locked) throw sessionLocked();
    const [current] = await markRows(tx, actor.clinicId, target.image.id, annotationId);
    if (!current) throw notFound();
    if (current.mark.version !== update.version) {
      throw new HttpError(409, 'annotation.stale', 'annotation.stale', {}, {}, { annotation: toAnnotation(current.mark, current.label, target.scale, lang) });
    }
    const shape = update.shape === undefined ? current.mark.shape : storedShape(update.shape as MarkShape);
    if (update.shape !== undefined) checkShape(shape, target.image);
    const label = update.labelId === undefined ? current.label : await checkLabel(tx, actor.clinicId, update.labelId);
    const note = update.note === undefined ? current.mark.note : checkNote(update.note);
    const row = await tx
      .updateTable('annotations')
      .set((eb) => ({
        shape: JSON.stringify(shape),
        label_id: label.id,
        note,
        version: eb('version', '+', 1),
        updated_at: ctx.clock.now(),
      }))
      .where('id', '=', current.mark.id)
      .returning(MARK_FIELDS)
      .executeTakeFirstOrThrow();
    return { target, annotation: toAnnotation(row as MarkRow, label, target.scale, lang) };
  });
  announceMarks(ctx, actor, target);
  return { annotation, patientId: target.patientId };
}

/** Removes a mark for good: 404, 423 on a locked session. */
export async function deleteMark(
  ctx: AppContext,
  actor: AnnotationActor,
  treatmentId: string,
  imageId: string,
  annotationId: string,
): Promise<{ patientId: string; kind: MarkShape['kind'] }> {
  const { target, kind } = await ctx.db.transaction().execute(async (tx) => {
    const target = await imageOfSession(tx, actor.clinicId, treatmentId, imageId, true);
    if (target.locked) throw sessionLocked();
    const removed = await tx
      .deleteFrom('annotations')
      .where('id', '=', annotationId)
      .where('image_id', '=', target.image.id)
      .where('clinic_id', '=', actor.clinicId)
      .returning('shape')
      .executeTakeFirst();
    if (!removed) throw notFound();
    return { target, kind: (removed.shape as MarkShape).kind };
  });
  announceMarks(ctx, actor, target);
  return { patientId: target.patientId, kind };
}
