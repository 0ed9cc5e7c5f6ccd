// Labelling and measuring on the fundus images of a session (issue 17): the clinic's labels and the marks of
// each image. Services without HTTP: they take the database, the clock and the acting user. Shapes are checked
// and measured by src/domain/annotations; every change reads the session FOR UPDATE first, so a change and an
// issue report racing each other cannot both win (a locked session takes no change). Each change is announced
// to the clinic's screens once committed.
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
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import type { Database, Queryable } from '../db/tables';
import { conflict, HttpError, invalid, notFound } from '../http/errors';
import { type Lang, type MessageKey, translate } from '../i18n';
import { announce, event } from '../realtime/announce';
import * as repository from '../repositories/annotations';
import type { LabelRow, MarkRow } from '../repositories/annotations';
import { userDisplayName } from '../repositories/people';
import { audit } from './audit';
import { sessionLocked } from './treatment-changes';

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
async function ensureDefaultLabels(db: Queryable, clinicId: string): Promise<void> {
  if ((await repository.countDefaultLabels(db, clinicId)) >= DEFAULT_LABEL_KEYS.length) return;
  await repository.insertDefaultLabels(db, clinicId, DEFAULT_LABEL_KEYS);
}

async function labelRows(db: Queryable, clinicId: string): Promise<LabelRow[]> {
  await ensureDefaultLabels(db, clinicId);
  // Defaults in their fixed order, then the clinic's own in the order they were added (the sort is stable).
  return (await repository.labelRows(db, clinicId)).sort(defaultsFirst);
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
export async function createLabel(ctx: AppContext, actor: Actor, input: AnnotationLabelInput): Promise<AnnotationLabel> {
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
    await repository.lockClinic(tx, actor.clinicId);
    const existing = await labelRows(tx, actor.clinicId);
    if (existing.length >= MAX_LABELS_PER_CLINIC) throw conflict('annotation_label.too_many', 'annotation_label.too_many', { max: MAX_LABELS_PER_CLINIC });
    if (clashesWith(names, existing.map(namesOf))) throw conflict('annotation_label.duplicate', 'annotation_label.duplicate');
    const label = await repository.insertLabel(tx, {
      clinicId: actor.clinicId,
      nameEn: names.en,
      nameDe: names.de,
      createdBy: actor.userId,
      createdByName: await actorName(tx, actor),
      createdAt: ctx.clock.now(),
    });
    await audit(tx, actor, { action: 'annotation_label.created', outcome: 'success', targetType: 'annotation_label', targetId: label.id });
    return label;
  });
  announce(ctx, [event('annotation-labels.changed', actor.clinicId, { labelIds: [created.id] })]);
  return toLabel(created, actor.lang);
}

/** The author's name as records keep it (the account still exists: the caller is signed in). */
const actorName = async (db: Queryable, actor: Actor): Promise<string> => (await userDisplayName(db, actor.userId)) ?? '';

// ---- Marks ----

/**
 * An image of one of the clinic's sessions (of an active patient), with the scale its marks are measured at:
 * the plan's, on the session's fundus image only (the plan's coordinates and scale refer to it; an infrared or
 * red-free image's pixel size is not known). 404 otherwise. Within a transaction the session row stays locked.
 */
async function imageOfSession(db: Queryable, clinicId: string, treatmentId: string, imageId: string, lock: boolean): Promise<ImageOfSession> {
  const row = await repository.imageWithSession(db, clinicId, treatmentId, imageId, lock);
  if (!row) throw notFound();
  const { plan } = row;
  return {
    treatmentId: row.treatment_id,
    patientId: row.patient_id,
    locked: row.locked,
    image: { id: row.image_id, role: row.role, width: row.width, height: row.height },
    scale: row.role === 'fundus' ? markScale(plan?.scale, plan?.opticDisc) : null,
  };
}

/** A mark as the contract has it; `label` null for a ruler without one. */
function toAnnotation(row: MarkRow, label: LabelRow | null, scale: MarkScale | null, lang: Lang): Annotation {
  return {
    id: row.id,
    imageId: row.image_id,
    shape: row.shape,
    labelId: label === null ? null : row.label_id,
    label: label === null ? null : namesOf(label)[lang],
    note: row.note,
    measurement: measureMark(row.shape, scale),
    createdAt: new Date(row.created_at).toISOString(),
    // The author as named then; the id stays even when the account is gone (as with issue reports).
    createdBy: { id: row.created_by ?? row.id, name: row.created_by_name },
    updatedAt: new Date(row.updated_at).toISOString(),
    version: row.version,
  };
}

/** The marks of an image, in the order they were placed, with the scale they are measured at. */
export async function listMarks(ctx: AppContext, actor: Actor, treatmentId: string, imageId: string): Promise<AnnotationList> {
  const target = await imageOfSession(ctx.db, actor.clinicId, treatmentId, imageId, false);
  const rows = await repository.markRows(ctx.db, actor.clinicId, imageId);
  await audit(ctx.db, actor, { action: 'annotation.read', outcome: 'success', targetType: 'treatment', targetId: treatmentId, detail: { imageId } });
  const { lang } = actor;
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
  /** The label's name in the report's language; null for a ruler without one. */
  label: string | null;
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
  const rows = await repository.markRows(db, clinicId, imageId);
  return {
    scale: target.scale,
    marks: rows.map(({ mark, label }) => ({
      id: mark.id,
      shape: mark.shape,
      label: label === null ? null : namesOf(label)[lang],
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

/**
 * Only a ruler (line) may go without a label: it measures, it is no finding. 400 `annotation.label_required`
 * for any other shape without one.
 */
function checkLabelled(shape: MarkShape, label: LabelRow | null): void {
  if (label === null && shape.kind !== 'line') {
    throw new HttpError(400, 'annotation.label_required', 'annotation.label_required', {}, { labelId: ['annotation.label_required'] });
  }
}

async function checkLabel(db: Queryable, clinicId: string, labelId: string | null): Promise<LabelRow | null> {
  if (labelId === null) return null;
  await ensureDefaultLabels(db, clinicId);
  const label = await repository.labelRow(db, clinicId, labelId);
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

const announceMarks = (ctx: AppContext, actor: Actor, target: ImageOfSession) =>
  announce(ctx, [event('annotations.changed', actor.clinicId, { patientId: target.patientId, treatmentId: target.treatmentId, imageId: target.image.id })]);

/** Places a mark: 404, 423 on a locked session, 422 for a shape, label or note the image cannot take, 409 at 500 marks. */
export async function createMark(
  ctx: AppContext,
  actor: Actor,
  treatmentId: string,
  imageId: string,
  input: AnnotationInput,
): Promise<Annotation> {
  const { lang } = actor;
  const { target, annotation } = await ctx.db.transaction().execute(async (tx) => {
    const target = await imageOfSession(tx, actor.clinicId, treatmentId, imageId, true);
    if (target.locked) throw sessionLocked();
    const shape = storedShape(input.shape as MarkShape);
    checkShape(shape, target.image);
    const label = await checkLabel(tx, actor.clinicId, input.labelId);
    checkLabelled(shape, label);
    const note = checkNote(input.note);
    if ((await repository.countMarks(tx, target.image.id)) >= MAX_MARKS_PER_IMAGE) {
      throw conflict('annotation.too_many', 'annotation.too_many', { max: MAX_MARKS_PER_IMAGE });
    }
    const row = await repository.insertMark(tx, {
      clinicId: actor.clinicId,
      treatmentId: target.treatmentId,
      imageId: target.image.id,
      labelId: label?.id ?? null,
      shape,
      note,
      createdBy: actor.userId,
      createdByName: await actorName(tx, actor),
      at: ctx.clock.now(),
    });
    await audit(tx, actor, {
      action: 'annotation.created',
      outcome: 'success',
      targetType: 'annotation',
      targetId: row.id,
      detail: { patientId: target.patientId, treatmentId, imageId, kind: shape.kind },
    });
    return { target, annotation: toAnnotation(row, label, target.scale, lang) };
  });
  announceMarks(ctx, actor, target);
  return annotation;
}

/**
 * Moves, relabels or re-notes a mark from the version the user saw: 409 `annotation.stale` with the mark as it
 * is now when someone else changed it meanwhile.
 */
export async function updateMark(
  ctx: AppContext,
  actor: Actor,
  treatmentId: string,
  imageId: string,
  annotationId: string,
  update: AnnotationUpdate,
): Promise<Annotation> {
  const { lang } = actor;
  const { target, annotation } = await ctx.db.transaction().execute(async (tx) => {
    const target = await imageOfSession(tx, actor.clinicId, treatmentId, imageId, true);
    if (target.locked) throw sessionLocked();
    const [current] = await repository.markRows(tx, actor.clinicId, target.image.id, annotationId);
    if (!current) throw notFound();
    if (current.mark.version !== update.version) {
      throw new HttpError(409, 'annotation.stale', 'annotation.stale', {}, {}, { annotation: toAnnotation(current.mark, current.label, target.scale, lang) });
    }
    const shape = update.shape === undefined ? current.mark.shape : storedShape(update.shape as MarkShape);
    if (update.shape !== undefined) checkShape(shape, target.image);
    const label = update.labelId === undefined ? current.label : await checkLabel(tx, actor.clinicId, update.labelId);
    // The mark as changed: a ruler that loses its label, or an unlabelled ruler made into another shape.
    checkLabelled(shape, label);
    const note = update.note === undefined ? current.mark.note : checkNote(update.note);
    const row = await repository.updateMarkRow(tx, current.mark.id, { shape, labelId: label?.id ?? null, note, at: ctx.clock.now() });
    await audit(tx, actor, {
      action: 'annotation.updated',
      outcome: 'success',
      targetType: 'annotation',
      targetId: row.id,
      detail: {
        patientId: target.patientId,
        treatmentId,
        imageId,
        version: row.version,
        changed: (['shape', 'labelId', 'note'] as const).filter((field) => update[field] !== undefined),
      },
    });
    return { target, annotation: toAnnotation(row, label, target.scale, lang) };
  });
  announceMarks(ctx, actor, target);
  return annotation;
}

/** Removes a mark for good: 404, 423 on a locked session. */
export async function deleteMark(ctx: AppContext, actor: Actor, treatmentId: string, imageId: string, annotationId: string): Promise<void> {
  const target = await ctx.db.transaction().execute(async (tx) => {
    const target = await imageOfSession(tx, actor.clinicId, treatmentId, imageId, true);
    if (target.locked) throw sessionLocked();
    const removed = await repository.deleteMarkRow(tx, actor.clinicId, target.image.id, annotationId);
    if (!removed) throw notFound();
    await audit(tx, actor, {
      action: 'annotation.deleted',
      outcome: 'success',
      targetType: 'annotation',
      targetId: annotationId,
      detail: { patientId: target.patientId, treatmentId, imageId, kind: removed.kind },
    });
    return target;
  });
  announceMarks(ctx, actor, target);
}
