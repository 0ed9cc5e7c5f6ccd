// Patients of a clinic: the rules of the lists with their session summary columns, reading, creating and
// changing patients, the deletion workflow (request → restore or erase for good) and the sessions on the
// patient card. Physicians and nurses work with active patients; IT admins with every list, archive, restore
// and erase. Every read of patient data is audited (ids and counts only, never names); multi-row changes run
// in one transaction. The queries are in repositories/patients.ts.
import type { Actor } from '../actor';
import type { ComparisonSide } from '../../generated/model/comparisonSide';
import type { Gender } from '../../generated/model/gender';
import type { ListPatientsParams } from '../../generated/model/listPatientsParams';
import type { Patient } from '../../generated/model/patient';
import type { PatientBulkAction } from '../../generated/model/patientBulkAction';
import type { PatientCreate } from '../../generated/model/patientCreate';
import type { PatientMatch } from '../../generated/model/patientMatch';
import type { PatientStatus } from '../../generated/model/patientStatus';
import type { PatientUpdate } from '../../generated/model/patientUpdate';
import type { TreatmentComparisonResponseData } from '../../generated/model/treatmentComparisonResponseData';
import type { TreatmentSummary } from '../../generated/model/treatmentSummary';
import { isSameName } from '../../src/domain/patients/same-name';
import type { AppContext } from '../context';
import { type Page, pageMeta } from '../db/listing';
import type { Queryable, TreatmentRow } from '../db/tables';
import { forbidden, HttpError, invalid, notFound } from '../http/errors';
import type { MessageKey } from '../i18n';
import { userDisplayName } from '../repositories/people';
import {
  deletePatientRows,
  insertPatient,
  isActivePatient,
  lockPatientRows,
  type LockedPatient,
  markDeletionRequested,
  patientRow,
  patientsBornOn,
  patientStatus,
  patientTreatmentsByIds,
  patientTreatmentsPage,
  replacePatientsInNotifications,
  setPatientsStatus,
  updateActivePatient,
} from '../repositories/patients';
import { audit } from './audit';
import type { AuditAction } from './audit-actions';
import { auditRead } from './audit-reads';
import { notify } from './notifications';
import { patientListPage, type PatientListPage, toPatient } from './patient-list';
import { laserSettingsOf, planOf, summariesOf } from './treatments';
import { announce, event } from '../realtime/announce';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How a patient is named in notifications ("given family"). */
export const patientLabel = (patient: { name: string; second_name: string }) => `${patient.name} ${patient.second_name}`;

const isAdmin = (role: string) => role === 'clinic_it_admins';

// How the list and the card show a patient (services elsewhere name it from here).
export { toPatient };

// ---------------------------------------------------------------------------------------------------
// Reading: the lists (their pages: patient-list.ts), the patient card.

/**
 * A list as a caller asked for it: physicians and nurses see active patients only (any other list is
 * refused and audited), the birthday range must be ordered and the search storable; the page read is audited.
 */
export async function listPatients(ctx: AppContext, actor: Actor, query: ListPatientsParams, request?: object): Promise<PatientListPage> {
  const status = query.status ?? 'active';
  if (!isAdmin(actor.role) && status !== 'active') {
    await audit(ctx.db, actor, { action: 'patient.list', outcome: 'denied', detail: { status } });
    throw forbidden();
  }
  if (query.birthdayFrom && query.birthdayTo && query.birthdayFrom > query.birthdayTo) {
    throw invalid({ birthdayTo: ['patient.birthday_range'] });
  }
  if (query.search && isUnusableText(query.search)) throw invalid({ search: ['validation.invalid'] });
  const result = await patientListPage(
    ctx.db,
    actor.clinicId,
    {
      page: query.page ?? 1,
      perPage: query.perPage ?? 20,
      search: query.search,
      birthdayFrom: query.birthdayFrom,
      birthdayTo: query.birthdayTo,
      status,
      planStatus: query.planStatus,
      patientId: query.patientId,
      sort: query.sort ?? '-latestSessionDate',
    },
    request,
  );
  await auditRead(ctx.db, actor, {
    action: 'patient.list',
    outcome: 'success',
    targetType: 'patient',
    patientIds: result.data.map((patient) => patient.id),
    detail: { status, count: result.data.length, total: result.meta.total, page: result.meta.page },
  });
  return result;
}

/** One patient of the clinic; `activeOnly` for physicians and nurses. Null when not found. */
export async function findPatient(db: Queryable, clinicId: string, id: string, activeOnly: boolean): Promise<Patient | null> {
  const row = await patientRow(db, clinicId, id, activeOnly);
  return row ? toPatient(row) : null;
}

export async function getPatientOrThrow(db: Queryable, clinicId: string, id: string, activeOnly: boolean): Promise<Patient> {
  const patient = await findPatient(db, clinicId, id, activeOnly);
  if (!patient) throw notFound();
  return patient;
}

/** The patient card: active patients for physicians and nurses, any for IT admins; found or not, audited. */
export async function readPatient(ctx: AppContext, actor: Actor, id: string): Promise<Patient> {
  const patient = await findPatient(ctx.db, actor.clinicId, id, !isAdmin(actor.role));
  await audit(ctx.db, actor, { action: 'patient.read', outcome: patient ? 'success' : 'failure', targetType: 'patient', targetId: patient?.id ?? id });
  if (!patient) throw notFound();
  return patient;
}

// ---------------------------------------------------------------------------------------------------
// Input checks the contract's schema cannot express.

// Control characters have no place in a name (NUL cannot even be stored); texts may keep line breaks.
// eslint-disable-next-line no-control-regex
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const TEXT_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const today = (ctx: AppContext) => ctx.clock.now().toISOString().slice(0, 10);

interface PatientFields {
  name?: string;
  secondName?: string;
  birthday?: string;
  description?: string | null;
}

/** Trimmed names and checked birthday/description; field errors answer 422. */
export function checkPatientFields<T extends PatientFields>(ctx: AppContext, input: T): T {
  const errors: Record<string, MessageKey[]> = {};
  const out = { ...input };
  for (const field of ['name', 'secondName'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    const trimmed = value.trim();
    if (!trimmed) errors[field] = ['validation.required'];
    else if (NAME_FORBIDDEN.test(trimmed)) errors[field] = ['validation.invalid'];
    out[field] = trimmed as T[typeof field];
  }
  if (input.birthday !== undefined) {
    if (input.birthday > today(ctx)) errors.birthday = ['patient.birthday_future'];
    else if (input.birthday < '1900-01-01') errors.birthday = ['patient.birthday_too_early'];
  }
  if (typeof input.description === 'string') {
    if (TEXT_FORBIDDEN.test(input.description)) errors.description = ['validation.invalid'];
    // An empty description is no description.
    else if (!input.description.trim()) out.description = null as T['description'];
  }
  if (Object.keys(errors).length) throw invalid(errors);
  return out;
}

/** A free text (search, reason) that cannot be stored or searched: NUL and other control characters. */
export const isUnusableText = (text: string) => TEXT_FORBIDDEN.test(text);

// ---------------------------------------------------------------------------------------------------
// Changes.

/** At most this many likely duplicates are named in a 409 (the contract's LikelyDuplicatePatientError). */
const LIKELY_DUPLICATES_NAMED = 10;

/**
 * The clinic's active and archived patients that a new patient may be: the same birthday, and the same name
 * and second name as `isSameName` compares them; active first, oldest first. A patient whose deletion was
 * requested is on the way out and no physician or nurse can open them, so they do not count.
 */
async function likelyDuplicates(db: Queryable, clinicId: string, patient: { name: string; secondName: string; birthday: string }) {
  // Names are compared here, where accents and spelled-out umlauts can be folded (no unaccent() in PGlite).
  const rows = await patientsBornOn(db, clinicId, patient.birthday);
  return rows
    .filter((row) => isSameName(row.name, patient.name) && isSameName(row.second_name, patient.secondName))
    .slice(0, LIKELY_DUPLICATES_NAMED)
    .map(
      (row): PatientMatch => ({
        id: row.id,
        name: row.name,
        secondName: row.second_name,
        birthday: row.birthday,
        gender: row.gender as Gender,
        status: row.status as PatientStatus,
      }),
    );
}

function likelyDuplicate(patients: PatientMatch[]): HttpError {
  const [first] = patients;
  const key: MessageKey = patients.length > 1 ? 'patient.likely_duplicate_many' : `patient.likely_duplicate.${first!.gender}`;
  return new HttpError(409, 'patient.likely_duplicate', key, { count: patients.length }, {}, { patients });
}

/**
 * Adds a patient. A likely duplicate (`likelyDuplicates`) answers 409 naming them, unless the caller confirmed
 * that this is another person (`confirmDuplicate`); the audit then keeps which patients it was added beside.
 */
export async function createPatient(ctx: AppContext, actor: Actor, input: PatientCreate): Promise<Patient> {
  const { confirmDuplicate = false, ...fields } = checkPatientFields(ctx, input);
  const now = ctx.clock.now();
  const id = await ctx.db.transaction().execute(async (tx) => {
    const duplicates = await likelyDuplicates(tx, actor.clinicId, fields);
    if (duplicates.length && !confirmDuplicate) throw likelyDuplicate(duplicates);
    const created = await insertPatient(tx, {
      clinicId: actor.clinicId,
      name: fields.name,
      secondName: fields.secondName,
      birthday: fields.birthday,
      gender: fields.gender,
      description: fields.description ?? null,
      createdBy: actor.userId,
      at: now,
    });
    await audit(tx, actor, {
      action: 'patient.created',
      outcome: 'success',
      targetType: 'patient',
      targetId: created,
      // Ids only: who the new patient was confirmed to be someone other than.
      ...(duplicates.length ? { detail: { confirmedDuplicateOf: duplicates.map((patient) => patient.id) } } : {}),
    });
    return created;
  });
  announce(ctx, [event('patients.created', actor.clinicId, { patientIds: [id] })]);
  return getPatientOrThrow(ctx.db, actor.clinicId, id, false);
}

export async function updatePatient(ctx: AppContext, actor: Actor, id: string, input: PatientUpdate): Promise<Patient> {
  const fields = checkPatientFields(ctx, input);
  const changes = {
    ...(fields.name !== undefined ? { name: fields.name } : {}),
    ...(fields.secondName !== undefined ? { second_name: fields.secondName } : {}),
    ...(fields.birthday !== undefined ? { birthday: fields.birthday } : {}),
    ...(fields.gender !== undefined ? { gender: fields.gender } : {}),
    ...(fields.description !== undefined ? { description: fields.description } : {}),
  };
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await updateActivePatient(tx, actor.clinicId, id, changes, ctx.clock.now()))) throw notFound();
    // Which fields changed, never their values.
    await audit(tx, actor, {
      action: 'patient.updated',
      outcome: 'success',
      targetType: 'patient',
      targetId: id,
      detail: { fields: Object.keys(input) },
    });
  });
  announce(ctx, [event('patients.changed', actor.clinicId, { patientIds: [id] })]);
  return getPatientOrThrow(ctx.db, actor.clinicId, id, true);
}

/** How the acting user is named in notifications ('' when the account is gone). */
const actorName = async (db: Queryable, actor: Actor): Promise<string> => (await userDisplayName(db, actor.userId)) ?? '';

/** A physician or nurse asks the IT admins to erase an active patient. */
export async function requestDeletion(ctx: AppContext, actor: Actor, id: string, reason: string): Promise<Patient> {
  const text = reason.trim();
  if (!text) throw invalid({ reason: ['validation.required'] });
  if (isUnusableText(text)) throw invalid({ reason: ['validation.invalid'] });
  const now = ctx.clock.now();
  const patient = await ctx.db.transaction().execute(async (tx) => {
    const row = await markDeletionRequested(tx, actor.clinicId, id, { reason: text, by: actor.userId, at: now });
    if (!row) {
      if ((await patientStatus(tx, actor.clinicId, id)) === 'deleting') {
        throw new HttpError(409, 'patient.deletion_already_requested', 'patient.deletion_already_requested');
      }
      throw notFound();
    }
    await audit(tx, actor, { action: 'patient.deletion_requested', outcome: 'success', targetType: 'patient', targetId: id });
    return row;
  });
  announce(ctx, [event('patients.changed', actor.clinicId, { patientIds: [id] })]);
  await notify(ctx, {
    clinicId: actor.clinicId,
    to: { role: 'clinic_it_admins' },
    event: 'deletion_requested',
    params: { requester: await actorName(ctx.db, actor), patient: patientLabel(patient), reason: text, patientId: id },
    link: '/admin/patient-list/deleting',
  });
  return getPatientOrThrow(ctx.db, actor.clinicId, id, false);
}

const TRANSITIONS: Record<PatientBulkAction, { from: PatientStatus; to: PatientStatus; audit: AuditAction }> = {
  archive: { from: 'active', to: 'archived', audit: 'patient.archived' },
  unarchive: { from: 'archived', to: 'active', audit: 'patient.unarchived' },
  restore: { from: 'deleting', to: 'active', audit: 'patient.restored' },
};

/** The named patients of the clinic, locked for the transaction; 404 unless every id is one. */
async function lockPatients(tx: Queryable, clinicId: string, named: string[]): Promise<LockedPatient[]> {
  const ids = [...new Set(named.map((id) => id.toLowerCase()))];
  const rows = await lockPatientRows(tx, clinicId, ids);
  if (rows.length !== ids.length) throw notFound();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)!);
}

/** Archive, unarchive or restore: all named patients or none. */
export async function bulkUpdatePatients(ctx: AppContext, actor: Actor, ids: string[], action: PatientBulkAction) {
  const { from, to, audit: auditAction } = TRANSITIONS[action];
  const now = ctx.clock.now();
  const changed = await ctx.db.transaction().execute(async (tx) => {
    const rows = await lockPatients(tx, actor.clinicId, ids);
    const conflicts = rows.filter((row) => row.status !== from).map((row) => ({ id: row.id, status: row.status as PatientStatus }));
    if (conflicts.length) {
      throw new HttpError(
        409,
        'patient.invalid_transition',
        `patient.transition.${action}` as MessageKey,
        { count: conflicts.length },
        {},
        { conflicts },
      );
    }
    await setPatientsStatus(
      tx,
      actor.clinicId,
      rows.map((row) => row.id),
      { status: to, at: now, clearDeletionRequest: action === 'restore' },
    );
    for (const row of rows) {
      await audit(tx, actor, { action: auditAction, outcome: 'success', targetType: 'patient', targetId: row.id });
    }
    return rows;
  });
  if (action === 'restore') {
    const restoredBy = await actorName(ctx.db, actor);
    for (const row of changed) {
      if (!row.deletion_requested_by) continue;
      await notify(ctx, {
        clinicId: actor.clinicId,
        to: { userIds: [row.deletion_requested_by] },
        event: 'patient_restored',
        params: { patient: patientLabel(row), actor: restoredBy, patientId: row.id },
        link: `/physician/patient-card?patientId=${row.id}`,
      });
    }
  }
  announce(ctx, [event('patients.changed', actor.clinicId, { patientIds: changed.map((row) => row.id) })]);
  return changed.map((row) => row.id);
}

/**
 * Erases patients for good (GDPR Art. 17): the rows (sessions cascade), their files, the patient's name
 * in notifications; the audit keeps the fact and the id only. All named patients or none.
 */
export async function erasePatients(ctx: AppContext, actor: Actor, ids: string[]): Promise<void> {
  const erased = await ctx.db.transaction().execute(async (tx) => {
    const rows = await lockPatients(tx, actor.clinicId, ids);
    const erasedIds = rows.map((row) => row.id);
    await deletePatientRows(tx, actor.clinicId, erasedIds);
    await replacePatientsInNotifications(tx, actor.clinicId, erasedIds, [...new Set(rows.map(patientLabel))]);
    for (const row of rows) {
      // No name, birthday or reason: the fact and the id only.
      await audit(tx, actor, { action: 'patient.erased', outcome: 'success', targetType: 'patient', targetId: row.id });
    }
    // Last, so that a failure here leaves the patients in place (and a retry finishes the job).
    for (const row of rows) await ctx.files.removePrefix(`${actor.clinicId}/treatments/${row.id}`);
    return rows;
  });
  announce(ctx, [event('patients.changed', actor.clinicId, { patientIds: erased.map((row) => row.id) })]);
  const erasedBy = await actorName(ctx.db, actor);
  for (const row of erased) {
    if (!row.deletion_requested_by) continue;
    await notify(ctx, {
      clinicId: actor.clinicId,
      to: { userIds: [row.deletion_requested_by] },
      event: 'patient_erased',
      params: { actor: erasedBy },
      link: null,
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// Sessions on the patient card (active patients only, whoever asks).

async function checkActivePatient(db: Queryable, clinicId: string, id: string): Promise<void> {
  if (!(await isActivePatient(db, clinicId, id))) throw notFound();
}

/** A page of the patient's sessions, newest first; the read is audited. */
export async function listTreatments(ctx: AppContext, actor: Actor, patientId: string, page: Page) {
  await checkActivePatient(ctx.db, actor.clinicId, patientId);
  const { total, rows } = await patientTreatmentsPage(ctx.db, actor.clinicId, patientId, {
    limit: page.perPage,
    offset: (page.page - 1) * page.perPage,
  });
  const result = { data: await summariesOf(ctx.db, rows, actor.lang), meta: pageMeta(page, total) };
  await audit(ctx.db, actor, {
    action: 'patient.treatments.list',
    outcome: 'success',
    targetType: 'patient',
    targetId: patientId,
    detail: { count: result.data.length },
  });
  return result;
}

/** Two sessions of the patient side by side, with what changed from the first to the second; audited. */
export async function compareTreatments(
  ctx: AppContext,
  actor: Actor,
  patientId: string,
  firstId: string,
  secondId: string,
): Promise<TreatmentComparisonResponseData> {
  if (firstId.toLowerCase() === secondId.toLowerCase()) {
    throw new HttpError(422, 'comparison.same_treatment', 'comparison.same_treatment', {}, { second: ['comparison.same_treatment'] });
  }
  await checkActivePatient(ctx.db, actor.clinicId, patientId);
  const rows = await patientTreatmentsByIds(ctx.db, actor.clinicId, patientId, [firstId, secondId]);
  const first = rows.find((row) => row.id === firstId.toLowerCase());
  const second = rows.find((row) => row.id === secondId.toLowerCase());
  if (!first || !second) throw notFound();
  const [firstSummary, secondSummary] = await summariesOf(ctx.db, [first, second], actor.lang);
  const side = (row: TreatmentRow, treatment: TreatmentSummary): ComparisonSide => ({
    treatment,
    plan: planOf(row),
    laserSettings: laserSettingsOf(row),
  });
  const dose = (row: TreatmentRow) => (row.laser_dose === null ? null : Number(row.laser_dose));
  const firstDose = dose(first);
  const secondDose = dose(second);
  const brightness =
    first.brightness === null || second.brightness === null
      ? null
      : Math.round((Number(second.brightness) - Number(first.brightness)) * 1000) / 1000;
  const data = {
    first: side(first, firstSummary!),
    second: side(second, secondSummary!),
    differences: {
      totalSpots: second.total_spots - first.total_spots,
      laserDose: firstDose === null || secondDose === null ? null : Math.round((secondDose - firstDose) * 1000) / 1000,
      brightness,
      daysBetween: Math.round((new Date(second.date).getTime() - new Date(first.date).getTime()) / DAY_MS),
    },
  };
  await audit(ctx.db, actor, {
    action: 'patient.treatments.compare',
    outcome: 'success',
    targetType: 'patient',
    targetId: patientId,
    detail: { treatments: [firstId, secondId] },
  });
  return data;
}
