/**
 * What an admin patient list shows lives in the URL (a reload or a shared link shows the same): the search, the
 * sort, the page and, from a notification's link, one patient by id. Values no link of ours writes fall back to
 * the defaults.
 */
import type { ListPatientsParams } from '@generated/model/listPatientsParams';
import { PatientSort } from '@generated/model/patientSort';
import type { PatientStatus } from '@generated/model/patientStatus';

export type PatientListName = 'active' | 'deleting' | 'archived';
export const PATIENT_LISTS: readonly PatientListName[] = ['active', 'deleting', 'archived'];

export interface AdminPatientsView {
  search: string;
  sort: PatientSort;
  page: number;
  /** Only this patient: a notification names a patient by id, never by name in the address. */
  patientId: string | null;
}

export const PER_PAGE = 20;
export const SEARCH_MAX = 100;
/** Deletion requests newest first would need their own key; the lists sort by name unless asked otherwise. */
export const DEFAULT_VIEW: AdminPatientsView = { search: '', sort: PatientSort.secondName, page: 1, patientId: null };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const SORTS = [PatientSort.secondName, PatientSort['-secondName'], PatientSort.birthday, PatientSort['-birthday'], PatientSort['-latestSessionDate'], PatientSort['-createdAt']] as const;

export function readAdminPatientsView(params: URLSearchParams): AdminPatientsView {
  const page = params.get('page') ?? '';
  const sort = params.get('sort');
  return {
    search: (params.get('search') ?? '').trim().slice(0, SEARCH_MAX),
    sort: SORTS.find((candidate) => candidate === sort) ?? DEFAULT_VIEW.sort,
    page: /^\d{1,6}$/.test(page) && Number(page) >= 1 ? Number(page) : DEFAULT_VIEW.page,
    patientId: UUID.test(params.get('patientId') ?? '') ? params.get('patientId')!.toLowerCase() : null,
  };
}

export function writeAdminPatientsView(view: AdminPatientsView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.search) params.set('search', view.search);
  if (view.sort !== DEFAULT_VIEW.sort) params.set('sort', view.sort);
  if (view.page !== DEFAULT_VIEW.page) params.set('page', String(view.page));
  if (view.patientId) params.set('patientId', view.patientId);
  return params;
}

export const adminPatientsParams = (list: PatientListName, view: AdminPatientsView): ListPatientsParams => ({
  page: view.page,
  perPage: PER_PAGE,
  status: list as PatientStatus,
  sort: view.sort,
  ...(view.search && { search: view.search }),
  ...(view.patientId && { patientId: view.patientId }),
});

/** The actions each list offers (the contract's bulk update and erasure). */
export type PatientAction = 'archive' | 'unarchive' | 'restore' | 'erase';
export const ACTIONS_OF: Record<PatientListName, PatientAction[]> = {
  active: ['archive'],
  deleting: ['restore', 'erase'],
  archived: ['unarchive', 'erase'],
};

const typed = (text: string) => text.trim().replace(/\s+/g, ' ').toLocaleLowerCase();

/**
 * Erasing asks for what the admin types (issue 30): one patient's name as the list shows it ("Keller, Anna", or
 * "Anna Keller"), or for several, their number. Case and spaces aside, it must match.
 */
export function erasureConfirmed(patients: { name: string; secondName: string }[], text: string): boolean {
  if (patients.length !== 1) return typed(text) === String(patients.length);
  const [patient] = patients;
  return [`${patient.secondName}, ${patient.name}`, `${patient.name} ${patient.secondName}`].some((name) => typed(name) === typed(text));
}
