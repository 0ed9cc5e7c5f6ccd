import type { ListPatientsParams } from '@generated/model/listPatientsParams';
import { PatientSort } from '@generated/model/patientSort';
import { PlanStatus } from '@generated/model/planStatus';
import { isIsoDate } from '@/lib/date-text';

/**
 * What the patient list shows, as it lives in the URL (`/physician/list?search=…&sort=…&page=…`), so that a
 * reload, the back button and a shared link restore the view. Values a URL cannot mean (a typo, an old
 * link) fall back to the defaults instead of failing the page.
 */
export type ListView = {
  search: string;
  birthdayFrom: string;
  birthdayTo: string;
  planStatus: PlanStatus | '';
  sort: PatientSort;
  /** The first page shown. */
  page: number;
  /** Pages appended below it by "Load more". */
  more: number;
};

export const PER_PAGE = 20;
export const DEFAULT_SORT: PatientSort = PatientSort['-latestSessionDate'];
/** The contract's limits. */
const MAX_PAGE = 1_000_000;
const MAX_SEARCH = 100;
/** "Load more" shows at most this many pages at once (a long list is paged, not one endless table). */
export const MAX_MORE = 9;

export const DEFAULT_VIEW: ListView = {
  search: '',
  birthdayFrom: '',
  birthdayTo: '',
  planStatus: '',
  sort: DEFAULT_SORT,
  page: 1,
  more: 0,
};

/** The plan statuses offered by the filter (`in_planning` is another spelling of `planning`). */
export const PLAN_STATUS_FILTERS: PlanStatus[] = [
  PlanStatus.plan_available,
  PlanStatus.planning,
  PlanStatus.file_uploaded,
  PlanStatus.processing,
  PlanStatus.no_plan_available,
  PlanStatus.issue_reported,
];

function wholeNumber(value: string | null, min: number, max: number, fallback: number): number {
  if (value === null || !/^\d{1,7}$/.test(value)) return fallback;
  const number = Number(value);
  return number >= min && number <= max ? number : fallback;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  values.find((candidate) => candidate === value) ?? fallback;

export function readListView(params: URLSearchParams): ListView {
  const date = (name: string) => {
    const value = params.get(name) ?? '';
    return isIsoDate(value) ? value : '';
  };
  const planStatus = params.get('planStatus') === PlanStatus.in_planning ? PlanStatus.planning : params.get('planStatus');
  return {
    search: (params.get('search') ?? '').slice(0, MAX_SEARCH),
    birthdayFrom: date('birthdayFrom'),
    birthdayTo: date('birthdayTo'),
    planStatus: oneOf<PlanStatus | ''>(PLAN_STATUS_FILTERS, planStatus, ''),
    sort: oneOf(Object.values(PatientSort), params.get('sort'), DEFAULT_SORT),
    page: wholeNumber(params.get('page'), 1, MAX_PAGE, 1),
    more: wholeNumber(params.get('more'), 0, MAX_MORE, 0),
  };
}

/** The URL query of a view: only what differs from the defaults, so a plain list has a plain URL. */
export function writeListView(view: ListView): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of Object.keys(DEFAULT_VIEW) as (keyof ListView)[]) {
    if (view[key] !== DEFAULT_VIEW[key]) params.set(key, String(view[key]));
  }
  return params;
}

/** The view after a change of filter or sort: back to the first page. */
export function withFilter(view: ListView, change: Partial<Omit<ListView, 'page' | 'more'>>): ListView {
  return { ...view, ...change, page: 1, more: 0 };
}

export type BirthdayRangeProblem = 'reversed' | undefined;

/** A range whose end lies before its start finds nobody: it is refused before any request. */
export function birthdayRangeProblem(view: Pick<ListView, 'birthdayFrom' | 'birthdayTo'>): BirthdayRangeProblem {
  return view.birthdayFrom && view.birthdayTo && view.birthdayFrom > view.birthdayTo ? 'reversed' : undefined;
}

/** The API parameters for page `page` of the view. */
export function listParams(view: ListView, page: number): ListPatientsParams {
  const search = view.search.trim();
  return {
    page,
    perPage: PER_PAGE,
    sort: view.sort,
    ...(search && { search }),
    ...(view.birthdayFrom && { birthdayFrom: view.birthdayFrom }),
    ...(view.birthdayTo && { birthdayTo: view.birthdayTo }),
    ...(view.planStatus && { planStatus: view.planStatus }),
  };
}

/** The pages the view shows: its first page and those "Load more" appended. */
export function shownPages(view: ListView): number[] {
  return Array.from({ length: view.more + 1 }, (_, index) => view.page + index);
}

/** A column's sort after a click: ascending first (the latest session: newest first), then the other way. */
export function nextSort(current: PatientSort, column: SortColumn): PatientSort {
  const firstDirection = column === 'latestSessionDate' || column === 'treatmentsCount' ? `-${column}` : column;
  if (current === firstDirection) return (firstDirection.startsWith('-') ? column : `-${column}`) as PatientSort;
  return firstDirection as PatientSort;
}

export type SortColumn = 'name' | 'secondName' | 'birthday' | 'latestSessionDate' | 'treatmentsCount';

/** How the column is sorted now, for aria-sort. */
export function sortState(current: PatientSort, column: SortColumn): 'ascending' | 'descending' | 'none' {
  if (current === column) return 'ascending';
  if (current === `-${column}`) return 'descending';
  return 'none';
}

/**
 * The page numbers to offer around `current` (1 … 4 5 [6] 7 8 … 20): the first, the last and two either
 * side; `null` marks a gap.
 */
export function pageNumbers(current: number, last: number): (number | null)[] {
  const wanted = new Set([1, last, current - 2, current - 1, current, current + 1, current + 2]);
  const numbers = [...wanted].filter((n) => n >= 1 && n <= last).sort((a, b) => a - b);
  const withGaps: (number | null)[] = [];
  numbers.forEach((n, index) => {
    if (index > 0 && n - numbers[index - 1] > 1) withGaps.push(null);
    withGaps.push(n);
  });
  return withGaps;
}
