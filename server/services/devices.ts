// The clinic's devices as the IT admin screens list them, by device id. A clinic has a few hundred at most:
// each filter's whole list is kept in memory while the clinic's devices are unchanged (the version
// 'devices:<clinic>', migration 0016), and a page is a slice of it.
import type { Device } from '../../generated/model/device';
import type { ListDevicesParams } from '../../generated/model/listDevicesParams';
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import { cachePerDatabase, versionStamp } from '../db/freshness';
import { pageMeta } from '../db/listing';
import * as clinic from '../repositories/clinic';
import { toDevice } from './laser-profiles';

/** Lists (a clinic's devices under one filter) kept per database. */
const lists = cachePerDatabase<Device[]>(256);

export async function listDevices(ctx: AppContext, actor: Actor, q: ListDevicesParams): Promise<{ data: Device[]; meta: ReturnType<typeof pageMeta> }> {
  const page = q.page ?? 1;
  const perPage = q.perPage ?? 20;
  const filter: clinic.DeviceFilter = { search: q.search?.trim() || undefined, status: q.status };
  const stamp = await versionStamp(ctx.db, [`devices:${actor.clinicId}`]);
  const devices = await lists(ctx.db).get(JSON.stringify([actor.clinicId, filter]), stamp, async () =>
    (await clinic.devicesOf(ctx.db, actor.clinicId, filter)).map(toDevice),
  );
  return { data: devices.slice((page - 1) * perPage, page * perPage), meta: pageMeta({ page, perPage }, devices.length) };
}
