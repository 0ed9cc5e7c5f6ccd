/**
 * What a staff list of /admin shows lives in the URL (a reload, the back button or a shared link shows the
 * same): the search, the role and status filters, the sort, the page and the page size. Values no link of ours
 * writes fall back to the defaults; only what differs from them is written back.
 */
import type { ListUsersParams } from '@generated/model/listUsersParams';
import type { RoleFilter } from '@generated/model/roleFilter';
import { UserSort } from '@generated/model/userSort';
import type { UserStatus } from '@generated/model/userStatus';

/**
 * The three staff lists of the admin area: /admin and /admin/physicians (the clinical staff: physicians and nurses),
 * /admin/it-clinic-admin and /admin/deactivated (every role).
 */
export type StaffScope = 'clinical' | 'itAdmins' | 'deactivated';

export type RoleChoice = 'all' | 'clinic_physicians' | 'clinic_nurses';
/** `current`: everyone but the archived and deleted (the server's default). */
export type StatusChoice = 'current' | 'active' | 'pending' | 'invite_expired' | 'creation_in_progress' | 'archived' | 'deleting';

export const ROLE_CHOICES: readonly RoleChoice[] = ['all', 'clinic_physicians', 'clinic_nurses'];
export const STATUS_CHOICES: readonly StatusChoice[] = ['current', 'active', 'pending', 'invite_expired', 'creation_in_progress', 'archived', 'deleting'];
export const PAGE_SIZES = [10, 20, 50, 100] as const;

export interface StaffView {
  search: string;
  role: RoleChoice;
  status: StatusChoice;
  sort: UserSort;
  page: number;
  perPage: number;
}

/** The contract's limits. */
export const SEARCH_MAX = 100;
const PAGE_MAX = 1_000_000;
export const DEFAULT_VIEW: StaffView = { search: '', role: 'all', status: 'current', sort: UserSort.name, page: 1, perPage: 20 };

const oneOf = <T extends string | number>(values: readonly T[], value: unknown, fallback: T): T =>
  values.find((candidate) => String(candidate) === value) ?? fallback;

export function readStaffView(params: URLSearchParams): StaffView {
  const page = params.get('page') ?? '';
  return {
    search: (params.get('search') ?? '').trim().slice(0, SEARCH_MAX),
    role: oneOf(ROLE_CHOICES, params.get('role'), DEFAULT_VIEW.role),
    status: oneOf(STATUS_CHOICES, params.get('status'), DEFAULT_VIEW.status),
    sort: oneOf(Object.values(UserSort), params.get('sort'), DEFAULT_VIEW.sort),
    page: /^\d{1,7}$/.test(page) && Number(page) >= 1 && Number(page) <= PAGE_MAX ? Number(page) : DEFAULT_VIEW.page,
    perPage: oneOf(PAGE_SIZES, params.get('perPage'), DEFAULT_VIEW.perPage),
  };
}

export function writeStaffView(view: StaffView): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['search', 'role', 'status', 'sort', 'page', 'perPage'] as const) {
    if (view[key] !== DEFAULT_VIEW[key]) params.set(key, String(view[key]));
  }
  return params;
}

const ROLES_OF: Record<Exclude<StaffScope, 'deactivated'>, RoleFilter[]> = {
  clinical: ['clinic_physicians', 'clinic_nurses'],
  itAdmins: ['clinic_it_admins'],
};

/** Whether a scope offers the role and status filters (the deactivated list is one status, every role). */
export const filtersOf = (scope: StaffScope) => ({ role: scope === 'clinical', status: scope !== 'deactivated' });

/** The request for a list: its roles and status, the view's search and sort; `page` and `perPage` as given. */
export function staffParams(scope: StaffScope, view: StaffView, page = view.page, perPage = view.perPage): ListUsersParams {
  const role: RoleFilter[] | undefined = scope === 'deactivated' ? undefined : view.role !== 'all' && scope === 'clinical' ? [view.role] : ROLES_OF[scope];
  const status: UserStatus | undefined = scope === 'deactivated' ? 'deactivated' : view.status === 'current' ? undefined : view.status;
  return {
    page,
    perPage,
    ...(view.search && { search: view.search }),
    ...(role && { role }),
    ...(status && { status }),
    ...(view.sort !== UserSort.name && { sort: view.sort }),
  };
}

/** Whether the view narrows the list (an empty answer then says "no match", not "no users yet"). */
export const isFiltered = (view: StaffView) => !!view.search || view.role !== 'all' || view.status !== 'current';

/** The sort a column header sets: ascending first, then descending. */
export function nextSort(current: UserSort, column: 'name' | 'role' | 'status'): UserSort {
  return (current === column ? `-${column}` : column) as UserSort;
}

export function sortState(current: UserSort, column: 'name' | 'role' | 'status'): 'ascending' | 'descending' | 'none' {
  if (current === column) return 'ascending';
  return current === `-${column}` ? 'descending' : 'none';
}
