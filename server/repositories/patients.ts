// The queries of the patients area: the list's ordered ids and its rows, one patient, the changes of the
// deletion workflow and the sessions on the patient card. Each takes the database or a transaction; every
// query is scoped to the clinic it names. No rules here (who may, what is valid): services/patients.ts.
import { type RawBuilder, sql } from 'kysely';
import type { PatientSort } from '../../generated/model/patientSort';
import type { PlanStatus } from '../../generated/model/planStatus';
import { containsPattern } from '../db/listing';
import { nameKey, nameKeyExpanded } from '../db/name-key';
import type { Queryable, TreatmentRow } from '../db/tables';
import { planStatusSql } from './plans';
import { latestTransferStatusSql } from './transfers';

// ---------------------------------------------------------------------------------------------------
// Reading: the patient with its latest session as a lateral subquery; the session count is on the row.

function patientsOf(db: Queryable, clinicId: string) {
  return db
    .selectFrom('patients as p')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('treatments as t')
          .select(['t.id', 't.date', 't.step', 't.processing_state', 't.locked'])
          .whereRef('t.patient_id', '=', 'p.id')
          .orderBy('t.date', 'desc')
          .orderBy('t.number', 'desc')
          .limit(1)
          .as('lt'),
      (join) => join.onTrue(),
    )
    .where('p.clinic_id', '=', clinicId);
}

function selectPatient(db: Queryable, clinicId: string) {
  return patientsOf(db, clinicId)
    .leftJoin('users as r', 'r.id', 'p.deletion_requested_by')
    .select([
      'p.id',
      'p.name',
      'p.second_name',
      'p.birthday',
      'p.gender',
      'p.description',
      'p.status',
      'p.device_patient_id',
      'p.deletion_reason',
      'p.deletion_requested_at',
      'p.created_at',
      'p.updated_at',
      'lt.date as latest_session_date',
      'p.sessions_count as treatments_count',
      'r.id as requester_id',
      'r.first_name as requester_first_name',
      'r.last_name as requester_last_name',
      'r.physician_name as requester_physician_name',
    ])
    .select(planStatusSql('lt').as('plan_status'))
    .select(sql<boolean>`coalesce(lt.processing_state = 'failed', false)`.as('latest_session_failed'))
    .select(latestTransferStatusSql('lt').as('transfer_status'));
}

/** A patient as the list and the card show it: its columns, its latest session's facts and who asked to erase it. */
export type PatientListRow = Awaited<ReturnType<ReturnType<typeof selectPatient>['executeTakeFirstOrThrow']>>;

/** One patient of the clinic (`activeOnly`: only while active). */
export function patientRow(db: Queryable, clinicId: string, id: string, activeOnly: boolean): Promise<PatientListRow | undefined> {
  let query = selectPatient(db, clinicId).where('p.id', '=', id);
  if (activeOnly) query = query.where('p.status', '=', 'active');
  return query.executeTakeFirst();
}

/** The named patients of the clinic, in no particular order. */
export function patientRowsByIds(db: Queryable, clinicId: string, ids: readonly string[]): Promise<PatientListRow[]> {
  if (!ids.length) return Promise.resolve([]);
  return selectPatient(db, clinicId).where('p.id', 'in', ids).execute();
}

/** What a list is filtered and sorted by (the search already trimmed, its inner spaces single). */
export interface PatientListFilter {
  status: string;
  sort: PatientSort;
  search?: string;
  birthdayFrom?: string;
  birthdayTo?: string;
  planStatus?: PlanStatus;
  /** Only this patient (a notification's link). */
  patientId?: string;
}

const SORT_KEYS = {
  // Names as a German clinic sorts them (DIN 5007-1, migration 0019), folded once when written (0020): Schäfer
  // before Schulz.
  name: sql`p.name_key`,
  secondName: sql`p.second_name_key`,
  birthday: sql`p.birthday`,
  latestSessionDate: sql`p.latest_session_at`,
  treatmentsCount: sql`p.sessions_count`,
  createdAt: sql`p.created_at`,
} as const;

type SortKey = keyof typeof SORT_KEYS;

/**
 * The list's order: the key (patients without sessions last both ways), then name, second name and id, so
 * that pages neither skip nor repeat a patient. Each key has an index in this order (migration 0005); only
 * the latest session can be null, so only it says `nulls last` (elsewhere a backward index scan serves the
 * descending order).
 */
function ordered<Q extends { orderBy(expression: RawBuilder<unknown>): Q }>(query: Q, sort: PatientSort): Q {
  const key = sort.replace(/^-/, '') as SortKey;
  const direction = sort.startsWith('-') ? 'desc' : 'asc';
  const nulls = key === 'latestSessionDate' ? ' nulls last' : '';
  return query
    .orderBy(sql`${SORT_KEYS[key]} ${sql.raw(direction + nulls)}`)
    .orderBy(sql`p.name_key`)
    .orderBy(sql`p.second_name_key`)
    .orderBy(sql`p.id`);
}

function withListFilters<Q extends ReturnType<typeof patientsOnly>>(query: Q, filter: PatientListFilter): Q {
  let filtered = query.where('p.status', '=', filter.status);
  if (filter.search) {
    // In the name, the second name, or both in either order ("Schneider, Maria" as the list writes it): each
    // joined form holds each name alone too. Folded both ways a German keyboard writes umlauts (migration
    // 0019, its column name_search): "Weiss", "schae" and "Ozdemir" find Weiß, Schäfer and Özdemir.
    const words = filter.search.replaceAll(',', ' ').split(' ').filter(Boolean).join(' ');
    const [term, expanded] = [containsPattern(nameKey(words)), containsPattern(nameKeyExpanded(words))];
    filtered = filtered.where(sql<boolean>`(p.name_search like ${term} escape '\\' or p.name_search like ${expanded} escape '\\')`);
  }
  if (filter.birthdayFrom) filtered = filtered.where('p.birthday', '>=', filter.birthdayFrom);
  if (filter.birthdayTo) filtered = filtered.where('p.birthday', '<=', filter.birthdayTo);
  if (filter.patientId) filtered = filtered.where('p.id', '=', filter.patientId);
  return filtered as Q;
}

const patientsOnly = (db: Queryable, clinicId: string) => db.selectFrom('patients as p').where('p.clinic_id', '=', clinicId);

/**
 * One page of a list and the list's total. Where the filters need only the patient's columns (all but
 * `planStatus`), the page is found on the patients table alone through the sort key's index, and only its
 * rows get their latest session; the total of an unfiltered list is the clinic's count by status, kept by a
 * trigger. The plan status is the latest session's: every listed patient's latest session is needed to filter.
 */
export async function patientListRows(
  db: Queryable,
  clinicId: string,
  filter: PatientListFilter,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: PatientListRow[] }> {
  if (filter.planStatus) {
    const query = withListFilters(selectPatient(db, clinicId), filter).where(planStatusSql('lt'), '=', filter.planStatus);
    const { total } = await query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await ordered(query, filter.sort).limit(page.limit).offset(page.offset).execute();
    return { total: Number(total), rows };
  }
  const base = withListFilters(patientsOnly(db, clinicId), filter);
  const unfiltered = !filter.search && !filter.birthdayFrom && !filter.birthdayTo && !filter.patientId;
  const total = unfiltered
    ? db
        .selectFrom('patient_counts')
        .select('patients as total')
        .where('clinic_id', '=', clinicId)
        .where('status', '=', filter.status)
        .executeTakeFirst()
        .then((row) => Number(row?.total ?? 0))
    : base
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.total));
  const pageIds = ordered(base.select('p.id'), filter.sort).limit(page.limit).offset(page.offset);
  const rows = ordered(selectPatient(db, clinicId).where('p.id', 'in', pageIds), filter.sort).execute();
  const [count, found] = await Promise.all([total, rows]);
  return { total: count, rows: found };
}

/**
 * The ids of every patient of a list, in the list's order: through the sort key's index where the filters
 * need only the patient's columns; a plan status is the latest session's, so that filter joins it.
 */
export async function orderedPatientIds(db: Queryable, clinicId: string, filter: PatientListFilter): Promise<string[]> {
  const query = filter.planStatus
    ? withListFilters(patientsOf(db, clinicId), filter).where(planStatusSql('lt'), '=', filter.planStatus)
    : withListFilters(patientsOnly(db, clinicId), filter);
  const rows = await ordered(query.select('p.id'), filter.sort).execute();
  return rows.map((row) => row.id);
}

/** The clinic's active and archived patients born on `birthday`: active first, oldest first. */
export function patientsBornOn(db: Queryable, clinicId: string, birthday: string) {
  // patients_by_birthday narrows to a handful of rows.
  return db
    .selectFrom('patients')
    .select(['id', 'name', 'second_name', 'birthday', 'gender', 'status'])
    .where('clinic_id', '=', clinicId)
    .where('status', 'in', ['active', 'archived'])
    .where('birthday', '=', birthday)
    .orderBy(sql`(status = 'active') desc`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A patient's names, for a notice that names them (the jobs act for the system: by id alone). */
export function patientNameOf(db: Queryable, patientId: string) {
  return db.selectFrom('patients').select(['name', 'second_name']).where('id', '=', patientId).executeTakeFirst();
}

/** The patient's status, if the clinic has the patient. */
export async function patientStatus(db: Queryable, clinicId: string, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('patients').select('status').where('clinic_id', '=', clinicId).where('id', '=', id).executeTakeFirst();
  return row?.status;
}

/** Whether the clinic has the patient and the patient is active. */
export async function isActivePatient(db: Queryable, clinicId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('patients')
    .select('id')
    .where('clinic_id', '=', clinicId)
    .where('id', '=', id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row !== undefined;
}

// ---------------------------------------------------------------------------------------------------
// Changes.

export interface NewPatient {
  /** Chosen beforehand when the patient's files are stored before the row (an exam's upload); else made here. */
  id?: string;
  clinicId: string;
  name: string;
  secondName: string;
  birthday: string;
  gender: string;
  description: string | null;
  /** The patient's id on the laser, when an exam file names them. */
  devicePatientId?: string;
  createdBy: string | null;
  at: Date;
}

/** Adds an active patient (typed in, or as an exam file names them); its id. */
export async function insertPatient(db: Queryable, patient: NewPatient): Promise<string> {
  const row = await db
    .insertInto('patients')
    .values({
      ...(patient.id ? { id: patient.id } : {}),
      clinic_id: patient.clinicId,
      name: patient.name,
      second_name: patient.secondName,
      birthday: patient.birthday,
      gender: patient.gender,
      description: patient.description,
      status: 'active',
      device_patient_id: patient.devicePatientId ?? null,
      created_by: patient.createdBy,
      created_at: patient.at,
      updated_at: patient.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface PatientChange {
  name?: string;
  second_name?: string;
  birthday?: string;
  gender?: string;
  description?: string | null;
}

/** Changes an active patient of the clinic; false when there is none with that id. */
export async function updateActivePatient(db: Queryable, clinicId: string, id: string, change: PatientChange, at: Date): Promise<boolean> {
  const row = await db
    .updateTable('patients')
    .set({ ...change, updated_at: at })
    .where('clinic_id', '=', clinicId)
    .where('id', '=', id)
    .where('status', '=', 'active')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks an active patient as waiting for erasure; its names, or undefined when no active patient has the id. */
export function markDeletionRequested(db: Queryable, clinicId: string, id: string, request: { reason: string; by: string; at: Date }) {
  return db
    .updateTable('patients')
    .set({ status: 'deleting', deletion_reason: request.reason, deletion_requested_by: request.by, deletion_requested_at: request.at, updated_at: request.at })
    .where('clinic_id', '=', clinicId)
    .where('id', '=', id)
    .where('status', '=', 'active')
    .returning(['id', 'name', 'second_name'])
    .executeTakeFirst();
}

export type LockedPatient = { id: string; status: string; name: string; second_name: string; deletion_requested_by: string | null };

/** The clinic's patients among `ids` (lower-case), locked until the transaction ends, in id order. */
export function lockPatientRows(tx: Queryable, clinicId: string, ids: readonly string[]): Promise<LockedPatient[]> {
  return tx
    .selectFrom('patients')
    .select(['id', 'status', 'name', 'second_name', 'deletion_requested_by'])
    .where('clinic_id', '=', clinicId)
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Sets the status of the clinic's named patients; `clearDeletionRequest` forgets why and by whom erasure was asked. */
export async function setPatientsStatus(
  db: Queryable,
  clinicId: string,
  ids: readonly string[],
  change: { status: string; at: Date; clearDeletionRequest: boolean },
): Promise<void> {
  await db
    .updateTable('patients')
    .set({
      status: change.status,
      updated_at: change.at,
      ...(change.clearDeletionRequest ? { deletion_reason: null, deletion_requested_by: null, deletion_requested_at: null } : {}),
    })
    .where('clinic_id', '=', clinicId)
    .where('id', 'in', ids)
    .execute();
}

/** Deletes the clinic's named patients (their sessions cascade). */
export async function deletePatientRows(db: Queryable, clinicId: string, ids: readonly string[]): Promise<void> {
  await db.deleteFrom('patients').where('clinic_id', '=', clinicId).where('id', 'in', ids).execute();
}

/**
 * Replaces erased patients in the clinic's notifications: the link to the patient goes, and the patient's
 * name (matched by id, or by `labels` in notifications that named the patient only) and any reason become
 * `replacement`.
 */
export async function replacePatientsInNotifications(
  db: Queryable,
  clinicId: string,
  ids: readonly string[],
  labels: readonly string[],
): Promise<void> {
  await sql`
    update notifications
    set params = (params - 'patientId' - 'patient' - 'reason') || jsonb_build_object('erased', 1), link = null
    where clinic_id = ${clinicId}
      and (params->>'patientId' in (${sql.join(ids)}) or params->>'patient' in (${sql.join(labels)}))
  `.execute(db);
}

// ---------------------------------------------------------------------------------------------------
// Sessions on the patient card.

/** One page of the patient's sessions, newest first, and how many there are. */
export async function patientTreatmentsPage(
  db: Queryable,
  clinicId: string,
  patientId: string,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: TreatmentRow[] }> {
  const base = db.selectFrom('treatments').where('clinic_id', '=', clinicId).where('patient_id', '=', patientId);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('date', 'desc').orderBy('number', 'desc').limit(page.limit).offset(page.offset).execute();
  return { total: Number(total), rows };
}

/** The patient's sessions among `ids`, in no particular order. */
export function patientTreatmentsByIds(db: Queryable, clinicId: string, patientId: string, ids: readonly string[]): Promise<TreatmentRow[]> {
  return db.selectFrom('treatments').selectAll().where('clinic_id', '=', clinicId).where('patient_id', '=', patientId).where('id', 'in', ids).execute();
}
