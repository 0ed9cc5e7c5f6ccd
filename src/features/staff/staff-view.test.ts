import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, nextSort, readStaffView, sortState, staffParams, writeStaffView } from './staff-view';

describe('staff view in the URL', () => {
  it('reads what it wrote, and writes only what differs from the defaults', () => {
    const view = { search: 'keller', role: 'clinic_nurses', status: 'archived', sort: '-status', page: 3, perPage: 10 } as const;
    const params = writeStaffView(view);
    expect(params.toString()).toBe('search=keller&role=clinic_nurses&status=archived&sort=-status&page=3&perPage=10');
    expect(readStaffView(params)).toEqual(view);
    expect(writeStaffView(DEFAULT_VIEW).toString()).toBe('');
  });

  it('falls back to the defaults for what no link of ours writes', () => {
    const params = new URLSearchParams('role=surgeon&status=gone&sort=age&page=0&perPage=7&search=' + 'x'.repeat(300));
    expect(readStaffView(params)).toEqual({ ...DEFAULT_VIEW, search: 'x'.repeat(100) });
    expect(readStaffView(new URLSearchParams('page=1e3')).page).toBe(1);
  });
});

describe('staffParams', () => {
  it('asks for the clinical staff as physicians and nurses, or one of them', () => {
    expect(staffParams('clinical', DEFAULT_VIEW)).toEqual({ page: 1, perPage: 20, role: ['clinic_physicians', 'clinic_nurses'] });
    expect(staffParams('clinical', { ...DEFAULT_VIEW, role: 'clinic_nurses', status: 'pending' })).toEqual({
      page: 1,
      perPage: 20,
      role: ['clinic_nurses'],
      status: 'pending',
    });
  });

  it('asks the deactivated list for every role, the IT admin list for its role whatever the role filter', () => {
    expect(staffParams('deactivated', { ...DEFAULT_VIEW, status: 'archived', role: 'clinic_nurses' })).toEqual({ page: 1, perPage: 20, status: 'deactivated' });
    expect(staffParams('itAdmins', { ...DEFAULT_VIEW, role: 'clinic_nurses', sort: '-name', search: 'weber' }, 4, 100)).toEqual({
      page: 4,
      perPage: 100,
      role: ['clinic_it_admins'],
      search: 'weber',
      sort: '-name',
    });
  });
});

describe('sorting', () => {
  it('sorts a column ascending, then descending, and says so', () => {
    expect(nextSort('name', 'name')).toBe('-name');
    expect(nextSort('-name', 'name')).toBe('name');
    expect(nextSort('name', 'status')).toBe('status');
    expect(sortState('-status', 'status')).toBe('descending');
    expect(sortState('name', 'role')).toBe('none');
  });
});
