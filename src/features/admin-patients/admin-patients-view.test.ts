import { describe, expect, it } from 'vitest';
import { adminPatientsParams, DEFAULT_VIEW, erasureConfirmed, readAdminPatientsView, writeAdminPatientsView } from './admin-patients-view';

describe('admin patient lists in the URL', () => {
  it('reads what it wrote; only what differs from the defaults is written', () => {
    const view = { search: 'Schneider', sort: '-birthday', page: 2, patientId: null } as const;
    expect(readAdminPatientsView(writeAdminPatientsView(view))).toEqual(view);
    expect(writeAdminPatientsView(DEFAULT_VIEW).toString()).toBe('');
  });

  it('falls back to the defaults for what no link of ours writes', () => {
    expect(readAdminPatientsView(new URLSearchParams('sort=treatmentsCount&page=-1&patientId=Becker'))).toEqual(DEFAULT_VIEW);
  });

  it('keeps a notification\'s patient by id, and asks for that patient only', () => {
    const id = 'B2D4F6A8-1C3E-4F5A-9B0C-2D3E4F5A6B72';
    const view = readAdminPatientsView(new URLSearchParams(`patientId=${id}`));
    expect(view).toEqual({ ...DEFAULT_VIEW, patientId: id.toLowerCase() });
    expect(writeAdminPatientsView(view).toString()).toBe(`patientId=${id.toLowerCase()}`);
    expect(adminPatientsParams('active', view)).toMatchObject({ status: 'active', patientId: id.toLowerCase() });
  });

  it('asks for the list by its status', () => {
    expect(adminPatientsParams('deleting', { ...DEFAULT_VIEW, search: 'Lang' })).toEqual({
      page: 1,
      perPage: 20,
      status: 'deleting',
      sort: 'secondName',
      search: 'Lang',
    });
  });
});

describe('erasureConfirmed', () => {
  const anna = { name: 'Anna', secondName: 'Keller' };
  it('takes one patient’s name in either order, case and spaces aside, and nothing less', () => {
    expect(erasureConfirmed([anna], 'Keller, Anna')).toBe(true);
    expect(erasureConfirmed([anna], '  anna   keller ')).toBe(true);
    expect(erasureConfirmed([anna], 'Keller')).toBe(false);
    expect(erasureConfirmed([anna], '')).toBe(false);
    expect(erasureConfirmed([anna], 'Keller, Anne')).toBe(false);
  });
  it('takes the number of patients for several', () => {
    expect(erasureConfirmed([anna, { name: 'Ben', secondName: 'Ott' }], '2')).toBe(true);
    expect(erasureConfirmed([anna, { name: 'Ben', secondName: 'Ott' }], 'Keller, Anna')).toBe(false);
  });
});
