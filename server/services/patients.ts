// Patients of a clinic: the list with its session summary columns, reading, creating and changing
// patients, the deletion workflow (request → restore or erase for good) and the sessions on the
// patient card. Every query is scoped to the caller's clinic; multi-row changes run in one transaction.
import type { FastifyRequest } from 'fastify';
import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { ComparisonSide } from '../../generated/model/comparisonSide';
import type { Gender } from '../../generated/model/gender';
import type { Patient } from '../../generated/model/patient';
import type { PatientBulkAction } from '../../generated/model/patientBulkAction';
import type { PatientCreate } from '../../generated/model/patientCreate';
import type { PatientMatch } from '../../generated/model/patientMatch';
import type { PatientSort } from '../../generated/model/patientSort';
import type { PatientStatus } from '../../generated/model/patientStatus';
import type { PatientUpdate } from '../../generated/model/patientUpdate';
import type { PlanStatus } from '../../generated/model/planStatus';
import type { TreatmentComparisonResponseData } from '../../generated/model/treatmentComparisonResponseData';
import type { TreatmentSummary } from '../../generated/model/treatmentSummary';
import { isSameName } from '../../src/domain/patients/same-name';
import type { AppContext } from '../context';
import { VersionedCache, versionStamp } from '../db/freshness';
import { containsPattern, type Page, pageMeta } from '../db/listing';
import type { Database, Tables, TreatmentRow } from '../db/tables';
import { HttpError, invalid, notFound } from '../http/errors';
import type { Lang, MessageKey } from '../i18n';
import { audit } from './audit';
import { displayName } from './people';
import { notify } from './notifications';
import { canonicalPlanStatus, planStatusSql } from './plan-status';
import { laserSettingsOf, planOf, summariesOf } from './treatments';
import { announce, event } from '../realtime/announce';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What replaces a patient's name in notifications once the patient is erased. */
export const ERASED_PATIENT_TEXT = '—';

/** How a patient is named in notifications ("given family"). */
export const patientLabel = (patient: { name: string; second_name: string }) => `${patient.name} ${patient.second_name}`;

// ---------------------------------------------------------------------------------------------------
// Reading: the patient with its latest session as a lateral subquery; the session count is on the row.

function patientsOf(db: Database, clinicId: string) {
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

function selectPatient(db: Database, clinicId: string) {
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
    .select(sql<boolean>`coalesce(lt.processing_state = 'failed', false)`.as('latest_session_failed'));
}

type PatientListRow = Awaited<ReturnType<ReturnType<typeof selectPatient>['executeTakeFirstOrThrow']>>;

export function toPatient(row: PatientListRow): Patient {
  const requestedBy =
    row.requester_id && row.requester_first_name !== null && row.requester_last_name !== null
      ? {
          id: row.requester_id,
          name: displayName({
            physician_name: row.requester_physician_name,
            first_name: row.requester_first_name,
            last_name: row.requester_last_name,
          }),
        }
      : null;
  return {
    id: row.id,
    name: row.name,
    secondName: row.second_name,
    birthday: row.birthday,
    gender: row.gender as Gender,
    description: row.description,
    status: row.status as PatientStatus,
    latestSessionDate: row.latest_session_date ? new Date(row.latest_session_date).toISOString() : null,
    planStatus: row.plan_status,
    latestSessionFailed: Boolean(row.latest_session_failed),
    treatmentsCount: Number(row.treatments_count ?? 0),
    deviceId: row.device_patient_id,
    // requestedBy is null when the requester's account no longer exists; the request stays visible.
    deletionRequest:
      row.status === 'deleting' && row.deletion_reason !== null && row.deletion_requested_at
        ? {
            reason: row.deletion_reason,
            requestedBy: requestedBy ?? null,
            requestedAt: new Date(row.deletion_requested_at).toISOString(),
          }
        : null,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export interface PatientFilter extends Page {
  search?: string;
  birthdayFrom?: string;
  birthdayTo?: string;
  status: PatientStatus;
  planStatus?: PlanStatus;
  sort: PatientSort;
}


const SORT_KEYS = {
  name: sql`lower(p.name)`,
  secondName: sql`lower(p.second_name)`,
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
    .orderBy(sql`lower(p.name)`)
    .orderBy(sql`lower(p.second_name)`)
    .orderBy(sql`p.id`);
}

function withPatientFilters<Q extends ReturnType<typeof patientsOnly>>(query: Q, filter: PatientFilter): Q {
  let filtered = query.where('p.status', '=', filter.status);
  const search = normalSearch(filter.search);
  if (search) {
    const term = containsPattern(search);
    filtered = filtered.where(
      sql<boolean>`(p.name ilike ${term} escape '\\' or p.second_name ilike ${term} escape '\\'
        or (p.name || ' ' || p.second_name) ilike ${term} escape '\\'
        or (p.second_name || ' ' || p.name) ilike ${term} escape '\\')`,
    );
  }
  if (filter.birthdayFrom) filtered = filtered.where('p.birthday', '>=', filter.birthdayFrom);
  if (filter.birthdayTo) filtered = filtered.where('p.birthday', '<=', filter.birthdayTo);
  return filtered as Q;
}

const normalSearch = (search: string | undefined) => search?.trim().replace(/\s+/g, ' ') || undefined;

const patientsOnly = (db: Database, clinicId: string) => db.selectFrom('patients as p').where('p.clinic_id', '=', clinicId);

export type PatientListPage = Readonly<{ data: readonly Readonly<Patient>[]; meta: Readonly<ReturnType<typeof pageMeta>> }>;

// Pages of the lists per database, for as long as nothing of the clinic's patients, their sessions or the
// requesters' names changed (migration 0005, server/db/freshness.ts).
const PAGES_KEPT = 2_000;
const pageCaches = new WeakMap<Database, VersionedCache<PatientListPage>>();

function pageCacheOf(db: Database): VersionedCache<PatientListPage> {
  let cache = pageCaches.get(db);
  if (!cache) pageCaches.set(db, (cache = new VersionedCache(PAGES_KEPT)));
  return cache;
}

/**
 * One page of a patient list, from memory while the clinic's patients are unchanged. `request` lets the
 * version check reuse what the sign-in check read for the same request.
 */
export async function listPatients(db: Database, clinicId: string, filter: PatientFilter, request?: object): Promise<PatientListPage> {
  const normal: PatientFilter = {
    page: filter.page,
    perPage: filter.perPage,
    status: filter.status,
    sort: filter.sort,
    search: normalSearch(filter.search),
    birthdayFrom: filter.birthdayFrom,
    birthdayTo: filter.birthdayTo,
    planStatus: filter.planStatus && canonicalPlanStatus(filter.planStatus),
  };
  const stamp = await versionStamp(db, [`patients:${clinicId}`], request);
  const key = JSON.stringify([clinicId, normal.status, normal.sort, normal.page, normal.perPage, normal.search, normal.birthdayFrom, normal.birthdayTo, normal.planStatus]);
  // Shared between the requests that read it while it is current: answers are serialised, never changed.
  return pageCacheOf(db).get(key, stamp, () => readPatientPage(db, clinicId, normal));
}

/**
 * A page read from the database. Where the filters need only the patient's columns (all but `planStatus`),
 * the page is found on the patients table alone through the sort key's index, and only its rows get their
 * latest session; the total of an unfiltered list is the clinic's count by status, kept by a trigger.
 */
async function readPatientPage(db: Database, clinicId: string, filter: PatientFilter): Promise<PatientListPage> {
  const offset = (filter.page - 1) * filter.perPage;
  if (filter.planStatus) return listByPlanStatus(db, clinicId, filter, offset);

  const base = withPatientFilters(patientsOnly(db, clinicId), filter);
  const unfiltered = !filter.search && !filter.birthdayFrom && !filter.birthdayTo;
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
  const pageIds = ordered(base.select('p.id'), filter.sort).limit(filter.perPage).offset(offset);
  const rows = ordered(selectPatient(db, clinicId).where('p.id', 'in', pageIds), filter.sort).execute();
  const [count, page] = await Promise.all([total, rows]);
  return { data: page.map(toPatient), meta: pageMeta(filter, count) };
}

/** The plan status is the latest session's: every listed patient's latest session is needed to filter. */
async function listByPlanStatus(db: Database, clinicId: string, filter: PatientFilter, offset: number): Promise<PatientListPage> {
  const query = withPatientFilters(selectPatient(db, clinicId), filter).where(planStatusSql('lt'), '=', filter.planStatus!);
  const { total } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await ordered(query, filter.sort).limit(filter.perPage).offset(offset).execute();
  return { data: rows.map(toPatient), meta: pageMeta(filter, Number(total)) };
}

/** One patient of the clinic; `activeOnly` for physicians and nurses. Null when not found. */
export async function findPatient(db: Database, clinicId: string, id: string, activeOnly: boolean): Promise<Patient | null> {
  let query = selectPatient(db, clinicId).where('p.id', '=', id);
  if (activeOnly) query = query.where('p.status', '=', 'active');
  const row = await query.executeTakeFirst();
  return row ? toPatient(row) : null;
}

export async function getPatientOrThrow(db: Database, clinicId: string, id: string, activeOnly: boolean): Promise<Patient> {
  const patient = await findPatient(db, clinicId, id, activeOnly);
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
async function likelyDuplicates(db: Database, clinicId: string, patient: { name: string; secondName: string; birthday: string }) {
  // The birthday narrows to a handful of rows through patients_by_birthday; names are compared here, where
  // accents and spelled-out umlauts can be folded (no unaccent() in PGlite).
  const rows = await db
    .selectFrom('patients')
    .select(['id', 'name', 'second_name', 'birthday', 'gender', 'status'])
    .where('clinic_id', '=', clinicId)
    .where('status', 'in', ['active', 'archived'])
    .where('birthday', '=', patient.birthday)
    .orderBy(sql`(status = 'active') desc`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
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
export async function createPatient(ctx: AppContext, request: FastifyRequest, input: PatientCreate): Promise<Patient> {
  const auth = request.auth!;
  const { confirmDuplicate = false, ...fields } = checkPatientFields(ctx, input);
  const now = ctx.clock.now();
  const id = await ctx.db.transaction().execute(async (tx) => {
    const duplicates = await likelyDuplicates(tx, auth.clinicId, fields);
    if (duplicates.length && !confirmDuplicate) throw likelyDuplicate(duplicates);
    const row = await tx
      .insertInto('patients')
      .values({
        clinic_id: auth.clinicId,
        name: fields.name,
        second_name: fields.secondName,
        birthday: fields.birthday,
        gender: fields.gender,
        description: fields.description ?? null,
        status: 'active',
        created_by: auth.userId,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await audit(tx, request, {
      action: 'patient.created',
      outcome: 'success',
      targetType: 'patient',
      targetId: row.id,
      // Ids only: who the new patient was confirmed to be someone other than.
      ...(duplicates.length ? { detail: { confirmedDuplicateOf: duplicates.map((patient) => patient.id) } } : {}),
    });
    return row.id;
  });
  announce(ctx, [event('patients.created', auth.clinicId, { patientIds: [id] })]);
  return getPatientOrThrow(ctx.db, auth.clinicId, id, false);
}

export async function updatePatient(ctx: AppContext, request: FastifyRequest, id: string, input: PatientUpdate): Promise<Patient> {
  const auth = request.auth!;
  const fields = checkPatientFields(ctx, input);
  const changes = {
    ...(fields.name !== undefined ? { name: fields.name } : {}),
    ...(fields.secondName !== undefined ? { second_name: fields.secondName } : {}),
    ...(fields.birthday !== undefined ? { birthday: fields.birthday } : {}),
    ...(fields.gender !== undefined ? { gender: fields.gender } : {}),
    ...(fields.description !== undefined ? { description: fields.description } : {}),
  };
  await ctx.db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('patients')
      .set({ ...changes, updated_at: ctx.clock.now() })
      .where('clinic_id', '=', auth.clinicId)
      .where('id', '=', id)
      .where('status', '=', 'active')
      .returning('id')
      .executeTakeFirst();
    if (!row) throw notFound();
    // Which fields changed, never their values.
    await audit(tx, request, {
      action: 'patient.updated',
      outcome: 'success',
      targetType: 'patient',
      targetId: id,
      detail: { fields: Object.keys(input) },
    });
  });
  announce(ctx, [event('patients.changed', auth.clinicId, { patientIds: [id] })]);
  return getPatientOrThrow(ctx.db, auth.clinicId, id, true);
}

async function actorName(db: Database, userId: string): Promise<string> {
  const user = await db
    .selectFrom('users')
    .select(['first_name', 'last_name', 'physician_name'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return user ? displayName(user) : '';
}

/** A physician or nurse asks the IT admins to erase an active patient. */
export async function requestDeletion(ctx: AppContext, request: FastifyRequest, id: string, reason: string): Promise<Patient> {
  const auth = request.auth!;
  const text = reason.trim();
  if (!text) throw invalid({ reason: ['validation.required'] });
  if (isUnusableText(text)) throw invalid({ reason: ['validation.invalid'] });
  const now = ctx.clock.now();
  const patient = await ctx.db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('patients')
      .set({ status: 'deleting', deletion_reason: text, deletion_requested_by: auth.userId, deletion_requested_at: now, updated_at: now })
      .where('clinic_id', '=', auth.clinicId)
      .where('id', '=', id)
      .where('status', '=', 'active')
      .returning(['id', 'name', 'second_name'])
      .executeTakeFirst();
    if (!row) {
      const existing = await tx
        .selectFrom('patients')
        .select('status')
        .where('clinic_id', '=', auth.clinicId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (existing?.status === 'deleting') {
        throw new HttpError(409, 'patient.deletion_already_requested', 'patient.deletion_already_requested');
      }
      throw notFound();
    }
    await audit(tx, request, { action: 'patient.deletion_requested', outcome: 'success', targetType: 'patient', targetId: id });
    return row;
  });
  announce(ctx, [event('patients.changed', auth.clinicId, { patientIds: [id] })]);
  await notify(ctx, {
    clinicId: auth.clinicId,
    to: { role: 'clinic_it_admins' },
    event: 'deletion_requested',
    params: { requester: await actorName(ctx.db, auth.userId), patient: patientLabel(patient), reason: text, patientId: id },
    link: '/admin/patient-list/deleting',
  });
  return getPatientOrThrow(ctx.db, auth.clinicId, id, false);
}

const TRANSITIONS: Record<PatientBulkAction, { from: PatientStatus; to: PatientStatus; audit: string }> = {
  archive: { from: 'active', to: 'archived', audit: 'patient.archived' },
  unarchive: { from: 'archived', to: 'active', audit: 'patient.unarchived' },
  restore: { from: 'deleting', to: 'active', audit: 'patient.restored' },
};

type LockedPatient = { id: string; status: string; name: string; second_name: string; deletion_requested_by: string | null };

/** The named patients of the clinic, locked for the transaction; 404 unless every id is one. */
async function lockPatients(tx: Transaction<Tables>, clinicId: string, named: string[]): Promise<LockedPatient[]> {
  const ids = [...new Set(named.map((id) => id.toLowerCase()))];
  const rows = await tx
    .selectFrom('patients')
    .select(['id', 'status', 'name', 'second_name', 'deletion_requested_by'])
    .where('clinic_id', '=', clinicId)
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
  if (rows.length !== ids.length) throw notFound();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)!);
}

/** Archive, unarchive or restore: all named patients or none. */
export async function bulkUpdatePatients(ctx: AppContext, request: FastifyRequest, ids: string[], action: PatientBulkAction) {
  const auth = request.auth!;
  const { from, to, audit: auditAction } = TRANSITIONS[action];
  const now = ctx.clock.now();
  const changed = await ctx.db.transaction().execute(async (tx) => {
    const rows = await lockPatients(tx, auth.clinicId, ids);
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
    await tx
      .updateTable('patients')
      .set({
        status: to,
        updated_at: now,
        ...(action === 'restore' ? { deletion_reason: null, deletion_requested_by: null, deletion_requested_at: null } : {}),
      })
      .where('clinic_id', '=', auth.clinicId)
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    for (const row of rows) {
      await audit(tx, request, { action: auditAction, outcome: 'success', targetType: 'patient', targetId: row.id });
    }
    return rows;
  });
  if (action === 'restore') {
    const actor = await actorName(ctx.db, auth.userId);
    for (const row of changed) {
      if (!row.deletion_requested_by) continue;
      await notify(ctx, {
        clinicId: auth.clinicId,
        to: { userIds: [row.deletion_requested_by] },
        event: 'patient_restored',
        params: { patient: patientLabel(row), actor, patientId: row.id },
        link: `/physician/patient-card?patientId=${row.id}`,
      });
    }
  }
  announce(ctx, [event('patients.changed', auth.clinicId, { patientIds: changed.map((row) => row.id) })]);
  return changed.map((row) => row.id);
}

/**
 * Erases patients for good (GDPR Art. 17): the rows (sessions cascade), their files, the patient's name
 * in notifications; the audit keeps the fact and the id only. All named patients or none.
 */
export async function erasePatients(ctx: AppContext, request: FastifyRequest, ids: string[]): Promise<void> {
  const auth = request.auth!;
  const erased = await ctx.db.transaction().execute(async (tx) => {
    const rows = await lockPatients(tx, auth.clinicId, ids);
    const erasedIds = rows.map((row) => row.id);
    await tx.deleteFrom('patients').where('clinic_id', '=', auth.clinicId).where('id', 'in', erasedIds).execute();
    const labels = [...new Set(rows.map(patientLabel))];
    await sql`
      update notifications
      set params = (params - 'patientId') || jsonb_build_object('patient', ${ERASED_PATIENT_TEXT}::text)
        || case when params->>'reason' is not null then jsonb_build_object('reason', ${ERASED_PATIENT_TEXT}::text)
                else '{}'::jsonb end
      where clinic_id = ${auth.clinicId}
        and (params->>'patientId' in (${sql.join(erasedIds)}) or params->>'patient' in (${sql.join(labels)}))
    `.execute(tx);
    for (const row of rows) {
      // No name, birthday or reason: the fact and the id only.
      await audit(tx, request, { action: 'patient.erased', outcome: 'success', targetType: 'patient', targetId: row.id });
    }
    // Last, so that a failure here leaves the patients in place (and a retry finishes the job).
    for (const row of rows) await ctx.files.removePrefix(`${auth.clinicId}/treatments/${row.id}`);
    return rows;
  });
  announce(ctx, [event('patients.changed', auth.clinicId, { patientIds: erased.map((row) => row.id) })]);
  const actor = await actorName(ctx.db, auth.userId);
  for (const row of erased) {
    if (!row.deletion_requested_by) continue;
    await notify(ctx, {
      clinicId: auth.clinicId,
      to: { userIds: [row.deletion_requested_by] },
      event: 'patient_erased',
      params: { actor },
      link: null,
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// Sessions on the patient card.

async function activePatientId(db: Database, clinicId: string, id: string): Promise<void> {
  const row = await db
    .selectFrom('patients')
    .select('id')
    .where('clinic_id', '=', clinicId)
    .where('id', '=', id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (!row) throw notFound();
}

export async function listTreatments(db: Database, clinicId: string, patientId: string, page: Page, lang: Lang) {
  await activePatientId(db, clinicId, patientId);
  const base = db.selectFrom('treatments').where('clinic_id', '=', clinicId).where('patient_id', '=', patientId);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('date', 'desc')
    .orderBy('number', 'desc')
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .execute();
  return { data: await summariesOf(db, rows, lang), meta: pageMeta(page, Number(total)) };
}

export async function compareTreatments(
  db: Database,
  clinicId: string,
  patientId: string,
  firstId: string,
  secondId: string,
  lang: Lang,
): Promise<TreatmentComparisonResponseData> {
  await activePatientId(db, clinicId, patientId);
  const rows = await db
    .selectFrom('treatments')
    .selectAll()
    .where('clinic_id', '=', clinicId)
    .where('patient_id', '=', patientId)
    .where('id', 'in', [firstId, secondId])
    .execute();
  const first = rows.find((row) => row.id === firstId.toLowerCase());
  const second = rows.find((row) => row.id === secondId.toLowerCase());
  if (!first || !second) throw notFound();
  const [firstSummary, secondSummary] = await summariesOf(db, [first, second], lang);
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
  return {
    first: side(first, firstSummary),
    second: side(second, secondSummary),
    differences: {
      totalSpots: second.total_spots - first.total_spots,
      laserDose: firstDose === null || secondDose === null ? null : Math.round((secondDose - firstDose) * 1000) / 1000,
      brightness,
      daysBetween: Math.round((new Date(second.date).getTime() - new Date(first.date).getTime()) / DAY_MS),
    },
  };
}
