// How a page of a patient list is read (docs/architecture.md, "How a list request is served"). While the
// clinic's patients are unchanged (the version 'patients:<clinic>', migration 0005, raised at the commit of
// any change to its patients, their sessions or the requesters' names) three things are kept in memory per
// database, each under the version stamp it was read with:
// - answered pages, for the page asked again (the list a clinic reopens);
// - the ordered ids of each list (status, filters, sort), that any page, deep or not, is a slice of;
// - the clinic's patients as answered, by id, so that a page of another order costs no query once its
//   patients were read: a page's, and once a list is paged deeply, all of the list's, read ahead in chunks.
// A change drops all three. Until a list's ids are read again, its first pages are read straight off the
// sort key's index (a few rows each, as after every change a clinic reopens the first page); a deeper page, or
// a search or filter that reads every patient anyway, reads the ids of the whole list in one query.
import type { Gender } from '../../generated/model/gender';
import type { Patient } from '../../generated/model/patient';
import type { PatientStatus } from '../../generated/model/patientStatus';
import { cachePerDatabase, onVersionRaised, versionStamp } from '../db/freshness';
import { type Page, pageMeta } from '../db/listing';
import type { Database } from '../db/tables';
import { orderedPatientIds, type PatientListFilter, type PatientListRow, patientListRows, patientRowsByIds } from '../repositories/patients';
import { displayName } from './people';
import { canonicalPlanStatus } from './plan-status';

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
    transferStatus: row.transfer_status ?? null,
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

export interface PatientFilter extends Page, PatientListFilter {
  status: PatientStatus;
}

export type PatientListPage = Readonly<{ data: readonly Readonly<Patient>[]; meta: Readonly<ReturnType<typeof pageMeta>> }>;

// Answered pages. Shared between the requests that read them while they are current: answers are serialised,
// never changed.
const pages = cachePerDatabase<PatientListPage>(2_000);
// Ordered ids, bounded by their number: a uuid string and its slot take about 64 bytes, so a million ids are
// some 64 MB — every order of every list of a few clinics of 10,000 patients, and their searches.
const orders = cachePerDatabase<readonly string[]>(1_000_000, (ids) => Math.max(1, ids.length));
// Patients as answered, by id: about 1 kB each.
const ROWS_KEPT = 50_000;

/** The answered patients of each clinic under one version stamp each, at most `limit` in all. */
class PatientsById {
  private readonly clinics = new Map<string, { stamp: string; patients: Map<string, Readonly<Patient>>; filling: boolean }>();
  private size = 0;

  constructor(readonly limit: number) {}

  /** The patients of `clinicId` kept under `stamp` (none when they were kept under another). */
  of(clinicId: string, stamp: string): ReadonlyMap<string, Readonly<Patient>> {
    return this.entry(clinicId, stamp).patients;
  }

  /** Whether `clinicId`'s patients are kept under `stamp` (a change since, or a clinic pushed out: no). */
  isCurrent(clinicId: string, stamp: string): boolean {
    return this.clinics.get(clinicId)?.stamp === stamp;
  }

  /** True the first time it is asked for a clinic and stamp: who may fill its patients in. */
  startFilling(clinicId: string, stamp: string): boolean {
    const entry = this.entry(clinicId, stamp);
    if (entry.filling) return false;
    entry.filling = true;
    return true;
  }

  /** Keeps `patients`, read under `stamp` or later (a later change raises the version past `stamp`). */
  add(clinicId: string, stamp: string, patients: readonly Readonly<Patient>[]): void {
    const kept = this.entry(clinicId, stamp).patients;
    for (const patient of patients) {
      if (!kept.has(patient.id)) this.size += 1;
      kept.set(patient.id, patient);
    }
    // The clinics used longest ago go first; a clinic over the limit alone starts again.
    for (const [other, entry] of this.clinics) {
      if (this.size <= this.limit) break;
      if (other === clinicId) continue;
      this.drop(other, entry.patients.size);
    }
    if (this.size > this.limit) {
      this.size -= kept.size;
      kept.clear();
      for (const patient of patients) kept.set(patient.id, patient);
      this.size += kept.size;
    }
  }

  private entry(clinicId: string, stamp: string) {
    const entry = this.clinics.get(clinicId);
    if (entry) this.drop(clinicId, entry.patients.size);
    // Last in the map's order: the most recently used.
    const current = entry?.stamp === stamp ? entry : { stamp, patients: new Map<string, Readonly<Patient>>(), filling: false };
    this.clinics.set(clinicId, current);
    this.size += current.patients.size;
    return current;
  }

  private drop(clinicId: string, size: number) {
    this.clinics.delete(clinicId);
    this.size -= size;
  }
}

const patientsById = new WeakMap<Database, PatientsById>();

function patientsOf(db: Database): PatientsById {
  let kept = patientsById.get(db);
  if (!kept) patientsById.set(db, (kept = new PatientsById(ROWS_KEPT)));
  return kept;
}

/** The first pages of a list (this many patients) are read straight off the index until its ids are read. */
const SHALLOW = 200;

/**
 * A page read straight off the index: unfiltered (filters that only the patient's columns answer through an
 * index; a search or a plan status reads every patient) and among the first SHALLOW patients.
 */
const readsOffTheIndex = (filter: PatientFilter) =>
  !(filter.search || filter.birthdayFrom || filter.birthdayTo || filter.planStatus || filter.patientId) && filter.page * filter.perPage <= SHALLOW;
/**
 * Patients read at a time when a list's are filled in. On PGlite a query has a fixed cost of a few
 * milliseconds whatever it reads (20 patients 6 ms, 100 10 ms, 500 19 ms on the shared 2-core machine), and
 * every query holds the one thread: 500 fill 10,000 patients in 20 steps short enough for a request between two.
 */
const FILL_CHUNK = 500;

/**
 * Reads the patients of a list that are not kept yet, a chunk at a time with requests served between two
 * chunks, while the clinic's version is unchanged: once a list is paged through deeply (its ids were read),
 * every page of every order is soon answered from memory instead of a query per page. One fill per clinic and
 * version.
 */
function fillIn(db: Database, clinicId: string, stamp: string, ids: readonly string[]): void {
  const kept = patientsOf(db);
  if (ids.length > kept.limit / 2 || !kept.startFilling(clinicId, stamp)) return;
  const fill = async () => {
    for (let start = 0; start < ids.length; start += FILL_CHUNK) {
      // A change since (another version) or the clinic pushed out: what is read would not be kept.
      if (!kept.isCurrent(clinicId, stamp)) return;
      const known = kept.of(clinicId, stamp);
      const missing = ids.slice(start, start + FILL_CHUNK).filter((id) => !known.has(id));
      if (!missing.length) continue;
      const rows = await patientRowsByIds(db, clinicId, missing);
      if (!kept.isCurrent(clinicId, stamp)) return;
      kept.add(clinicId, stamp, rows.map(toPatient));
      // PGlite answers without leaving the microtask queue: without this the whole fill would hold the thread.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  // Ahead of need only: a failure leaves the patients to the requests that ask for them, and tells them.
  fill().catch(() => undefined);
}

/** Of each clinic, this many of the pages read last are kept current after a change, if read this recently. */
const RECENT_PAGES = 4;
const RECENT_MS = 60_000;
const RECENT_CLINICS = 256;

/**
 * The list as it opens, read again as soon as a change to the clinic's patients or sessions commits, where this
 * process learns of the change as it commits (PGlite): a list on screen asks again on the change's realtime
 * event, and its first page is then read already instead of by that request, which on PGlite would wait for the
 * one connection while the read runs. Only pages read off the index (`readsOffTheIndex`: one indexed read
 * each), only pages read in the last minute, at most RECENT_PAGES per clinic; several changes before the read
 * starts are read for once.
 */
type RecentPage = { filter: PatientFilter; list: string; at: number };

class RecentPages {
  private readonly clinics = new Map<string, Map<string, RecentPage>>();
  private readonly scheduled = new Set<string>();

  constructor(private readonly db: Database) {
    onVersionRaised(db, (key) => {
      if (key.startsWith('patients:')) this.schedule(key.slice('patients:'.length));
    });
  }

  note(clinicId: string, pageKey: string, filter: PatientFilter, list: string): void {
    if (!readsOffTheIndex(filter)) return;
    const recent = this.clinics.get(clinicId) ?? new Map<string, RecentPage>();
    // Last in each map's order: the most recently read.
    this.clinics.delete(clinicId);
    this.clinics.set(clinicId, recent);
    recent.delete(pageKey);
    recent.set(pageKey, { filter, list, at: performance.now() });
    if (recent.size > RECENT_PAGES) recent.delete(recent.keys().next().value!);
    if (this.clinics.size > RECENT_CLINICS) this.clinics.delete(this.clinics.keys().next().value!);
  }

  private schedule(clinicId: string): void {
    if (!this.clinics.has(clinicId) || this.scheduled.has(clinicId)) return;
    this.scheduled.add(clinicId);
    // After the committing statement has returned (the version is raised while it runs).
    setImmediate(() => {
      this.scheduled.delete(clinicId);
      // Ahead of need only: a failed read is left to the requests that ask for the page, and tells them.
      this.refresh(clinicId).catch(() => undefined);
    });
  }

  private async refresh(clinicId: string): Promise<void> {
    const recent = this.clinics.get(clinicId);
    if (!recent) return;
    for (const [pageKey, { filter, list, at }] of [...recent].reverse()) {
      if (performance.now() - at > RECENT_MS) {
        recent.delete(pageKey);
        continue;
      }
      const stamp = await versionStamp(this.db, [`patients:${clinicId}`]);
      await pages(this.db).get(pageKey, stamp, () => readPage(this.db, clinicId, filter, stamp, list));
    }
    if (!recent.size) this.clinics.delete(clinicId);
  }
}

const recentPages = new WeakMap<Database, RecentPages>();

function recentPagesOf(db: Database): RecentPages {
  let recent = recentPages.get(db);
  if (!recent) recentPages.set(db, (recent = new RecentPages(db)));
  return recent;
}

const normalSearch = (search: string | undefined) => search?.trim().replace(/\s+/g, ' ') || undefined;

/**
 * One page of a patient list. `request` (any object living as long as the request) lets the version check
 * reuse what the sign-in check read for the same request.
 */
export async function patientListPage(db: Database, clinicId: string, filter: PatientFilter, request?: object): Promise<PatientListPage> {
  const normal: PatientFilter = {
    page: filter.page,
    perPage: filter.perPage,
    status: filter.status,
    sort: filter.sort,
    search: normalSearch(filter.search),
    birthdayFrom: filter.birthdayFrom,
    birthdayTo: filter.birthdayTo,
    planStatus: filter.planStatus && canonicalPlanStatus(filter.planStatus),
    patientId: filter.patientId,
  };
  const stamp = await versionStamp(db, [`patients:${clinicId}`], request);
  const list = JSON.stringify([clinicId, normal.status, normal.sort, normal.search, normal.birthdayFrom, normal.birthdayTo, normal.planStatus, normal.patientId]);
  const pageKey = `${list} ${normal.page} ${normal.perPage}`;
  if (stamp !== null) recentPagesOf(db).note(clinicId, pageKey, normal, list);
  return pages(db).get(pageKey, stamp, () => readPage(db, clinicId, normal, stamp, list));
}

async function readPage(db: Database, clinicId: string, filter: PatientFilter, stamp: string | null, list: string): Promise<PatientListPage> {
  const offset = (filter.page - 1) * filter.perPage;
  const ids = stamp === null ? undefined : orders(db).current(list, stamp);
  if (stamp === null || (!ids && readsOffTheIndex(filter))) {
    const { total, rows } = await patientListRows(db, clinicId, filter, { limit: filter.perPage, offset });
    const data = rows.map(toPatient);
    if (stamp !== null) patientsOf(db).add(clinicId, stamp, data);
    return { data, meta: pageMeta(filter, total) };
  }
  const ordered = ids ?? (await orders(db).get(list, stamp, () => orderedPatientIds(db, clinicId, filter)));
  const pageIds = ordered.slice(offset, offset + filter.perPage);
  const known = patientsOf(db).of(clinicId, stamp);
  const missing = pageIds.filter((id) => !known.has(id));
  if (missing.length) {
    patientsOf(db).add(clinicId, stamp, (await patientRowsByIds(db, clinicId, missing)).map(toPatient));
    fillIn(db, clinicId, stamp, ordered);
  }
  const kept = patientsOf(db).of(clinicId, stamp);
  // A patient that left the list since its ids were read (a change committed in between) is left out; the
  // next request reads both anew under the raised version.
  const data = pageIds.flatMap((id) => {
    const patient = kept.get(id);
    return patient?.status === filter.status ? [patient] : [];
  });
  return { data, meta: pageMeta(filter, ordered.length) };
}
