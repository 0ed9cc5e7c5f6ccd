import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PatientSort } from '@generated/model/patientSort';
import {
  birthdayRangeProblem,
  DEFAULT_VIEW,
  listParams,
  MAX_MORE,
  nextSort,
  pageNumbers,
  PLAN_STATUS_FILTERS,
  readListView,
  shownPages,
  sortState,
  withFilter,
  writeListView,
  type ListView,
} from './list-view';

const read = (query: string) => readListView(new URLSearchParams(query));

describe('the list view in the URL', () => {
  it('is the default view for a plain URL', () => {
    expect(read('')).toEqual(DEFAULT_VIEW);
    expect(writeListView(DEFAULT_VIEW).toString()).toBe('');
  });

  it('reads what a link says', () => {
    expect(
      read('search=Maria&birthdayFrom=1940-01-01&birthdayTo=1960-12-31&planStatus=plan_available&sort=birthday&page=3&more=1'),
    ).toEqual({
      search: 'Maria',
      birthdayFrom: '1940-01-01',
      birthdayTo: '1960-12-31',
      planStatus: 'plan_available',
      sort: 'birthday',
      page: 3,
      more: 1,
    });
    expect(read('planStatus=in_planning').planStatus).toBe('planning');
  });

  it('falls back to the defaults for values no link of ours writes', () => {
    expect(
      read('sort=age&page=0&more=-1&planStatus=lost&birthdayFrom=2026-02-30&birthdayTo=yesterday&page=abc'),
    ).toEqual(DEFAULT_VIEW);
    expect(read('page=99999999').page).toBe(1);
    expect(read(`more=${MAX_MORE + 1}`).more).toBe(0);
    expect(read(`search=${'x'.repeat(300)}`).search).toHaveLength(100);
  });

  it('writes only what differs from the defaults, and reads back what it wrote', () => {
    const view = fc.record<ListView>({
      search: fc.string({ maxLength: 100 }),
      birthdayFrom: fc.constantFrom('', '1940-01-01', '2000-02-29'),
      birthdayTo: fc.constantFrom('', '1960-12-31'),
      planStatus: fc.constantFrom('' as const, ...PLAN_STATUS_FILTERS),
      sort: fc.constantFrom(...Object.values(PatientSort)),
      page: fc.integer({ min: 1, max: 1_000_000 }),
      more: fc.integer({ min: 0, max: MAX_MORE }),
    });
    fc.assert(
      fc.property(view, (v) => {
        expect(readListView(writeListView(v))).toEqual(v);
      }),
    );
  });

  it('goes back to the first page when a filter or the sort changes', () => {
    const view = { ...DEFAULT_VIEW, page: 4, more: 2 };
    expect(withFilter(view, { search: 'Becker' })).toMatchObject({ search: 'Becker', page: 1, more: 0 });
  });
});

describe('birthday range', () => {
  it('refuses an end before the start, nothing else', () => {
    expect(birthdayRangeProblem({ birthdayFrom: '1960-01-01', birthdayTo: '1950-01-01' })).toBe('reversed');
    expect(birthdayRangeProblem({ birthdayFrom: '1950-01-01', birthdayTo: '1950-01-01' })).toBeUndefined();
    expect(birthdayRangeProblem({ birthdayFrom: '1950-01-01', birthdayTo: '' })).toBeUndefined();
  });
});

describe('requests', () => {
  it('asks for the shown pages with the filters that are set', () => {
    const view = { ...DEFAULT_VIEW, search: '  Maria ', planStatus: 'processing' as const, page: 2, more: 2 };
    expect(shownPages(view)).toEqual([2, 3, 4]);
    expect(listParams(view, 3)).toEqual({
      page: 3,
      perPage: 20,
      sort: '-latestSessionDate',
      search: 'Maria',
      planStatus: 'processing',
    });
  });
});

describe('sorting by a column', () => {
  it('starts names ascending and the latest session newest first, and turns round on the next click', () => {
    expect(nextSort('-latestSessionDate', 'secondName')).toBe('secondName');
    expect(nextSort('secondName', 'secondName')).toBe('-secondName');
    expect(nextSort('-secondName', 'secondName')).toBe('secondName');
    expect(nextSort('secondName', 'latestSessionDate')).toBe('-latestSessionDate');
    expect(nextSort('-latestSessionDate', 'latestSessionDate')).toBe('latestSessionDate');
    expect(sortState('-birthday', 'birthday')).toBe('descending');
    expect(sortState('birthday', 'birthday')).toBe('ascending');
    expect(sortState('birthday', 'secondName')).toBe('none');
  });
});

describe('page numbers', () => {
  it('offers the first, the last and two either side of the current page', () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(1, 3)).toEqual([1, 2, 3]);
    expect(pageNumbers(6, 20)).toEqual([1, null, 4, 5, 6, 7, 8, null, 20]);
    expect(pageNumbers(20, 20)).toEqual([1, null, 18, 19, 20]);
  });
});
