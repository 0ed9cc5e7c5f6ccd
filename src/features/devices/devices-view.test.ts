import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { devicesParams, readDevicesView, writeDevicesView } from './devices-view';

describe('devices view in the URL', () => {
  it('reads what our links write and falls back on anything else', () => {
    expect(readDevicesView(new URLSearchParams('search=NAV&status=offline&page=2'))).toEqual({ search: 'NAV', status: 'offline', page: 2 });
    expect(readDevicesView(new URLSearchParams('status=broken&page=-1'))).toEqual({ search: '', status: 'all', page: 1 });
    expect(readDevicesView(new URLSearchParams('page=1.5'))).toMatchObject({ page: 1 });
    expect(readDevicesView(new URLSearchParams(`search=${'x'.repeat(500)}`)).search).toHaveLength(100);
  });

  it('writes only what differs from the defaults', () => {
    expect(writeDevicesView({ search: '', status: 'all', page: 1 }).toString()).toBe('');
    expect(writeDevicesView({ search: 'OH 12', status: 'online', page: 3 }).toString()).toBe('search=OH+12&status=online&page=3');
  });

  it('reads back what it writes (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }).map((s) => s.trim()), fc.constantFrom('all', 'online', 'offline' as const), fc.integer({ min: 1, max: 10_000 }), (search, status, page) => {
        const view = { search, status, page };
        expect(readDevicesView(writeDevicesView(view))).toEqual(view);
      }),
    );
  });

  it('asks for the status only when filtered', () => {
    expect(devicesParams({ search: '', status: 'all', page: 1 })).toEqual({ page: 1, perPage: 20 });
    expect(devicesParams({ search: 'cam', status: 'offline', page: 2 })).toEqual({ page: 2, perPage: 20, search: 'cam', status: 'offline' });
  });
});
