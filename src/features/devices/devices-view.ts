/**
 * What /admin/devices shows lives in the URL (a reload or a shared link shows the same): the search, the sync
 * status and the page. Values no link of ours writes fall back to the defaults; only what differs from them
 * is written back.
 */
import type { ListDevicesParams } from '@generated/model/listDevicesParams';

export type SyncFilter = 'all' | 'online' | 'offline';
export interface DevicesView {
  search: string;
  status: SyncFilter;
  page: number;
}

export const DEVICES_PER_PAGE = 20;
/** The contract's limit of a search text. */
export const SEARCH_MAX = 100;
const DEFAULT_VIEW: DevicesView = { search: '', status: 'all', page: 1 };

export function readDevicesView(params: URLSearchParams): DevicesView {
  const search = (params.get('search') ?? '').trim().slice(0, SEARCH_MAX);
  const status = params.get('status');
  const page = Number(params.get('page'));
  return {
    search,
    status: status === 'online' || status === 'offline' ? status : DEFAULT_VIEW.status,
    page: Number.isSafeInteger(page) && page >= 1 && page <= 10_000 ? page : DEFAULT_VIEW.page,
  };
}

export function writeDevicesView(view: DevicesView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.search) params.set('search', view.search);
  if (view.status !== DEFAULT_VIEW.status) params.set('status', view.status);
  if (view.page !== DEFAULT_VIEW.page) params.set('page', String(view.page));
  return params;
}

/** The request for a view (the generated query key follows it). */
export function devicesParams(view: DevicesView): ListDevicesParams {
  return {
    page: view.page,
    perPage: DEVICES_PER_PAGE,
    ...(view.search && { search: view.search }),
    ...(view.status !== 'all' && { status: view.status }),
  };
}
