// The rules of a device's laser profile, called as a service without HTTP: a profile a laser cannot have is refused
// field by field, another clinic's device is not found, and a saved profile is audited with the one it replaced
// and listed at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laserProfileProblems, type LaserProfile } from '../../src/domain/planning/clinical-limits';
import { createClinic, createUser } from '../../tests/server/fixtures';
import { startServer, type TestServer } from '../../tests/server/helper';
import { actorFor, auditEntries, refusal } from '../../tests/server/service-calls';
import type { Actor } from '../actor';
import { GREEN_LASER_PROFILE, YELLOW_LASER_PROFILE } from '../seed/laser-profiles';
import { listDevices } from './devices';
import { updateLaserProfile } from './laser-profiles';

let server: TestServer;
let admin: Actor;
let device: string;
let otherDevice: string;

const deviceOf = async (clinicId: string) =>
  (await server.db.selectFrom('devices').select('id').where('clinic_id', '=', clinicId).executeTakeFirstOrThrow()).id;

beforeAll(async () => {
  server = await startServer({ jobs: false });
  const clinicId = await createClinic(server.db);
  admin = actorFor(await createUser(server.db, { clinicId, role: 'clinic_it_admins' }), clinicId, 'clinic_it_admins');
  device = await deviceOf(clinicId);
  otherDevice = await deviceOf(await createClinic(server.db, 'Andere Klinik'));
});
afterAll(() => server.close());

describe('updateLaserProfile', () => {
  it('refuses a reversed range or one no laser delivers, naming each field, and keeps the profile', async () => {
    const broken: LaserProfile = {
      ...GREEN_LASER_PROFILE,
      spotSizeUm: { min: 500, max: 50 },
      modes: { continuous: { powerMw: { min: 50, max: 1_000_000 }, pulseMs: { min: 10, max: 200 } } },
    };
    expect(laserProfileProblems(broken)).toHaveLength(2);
    expect(await refusal(updateLaserProfile(server.ctx, admin, device, broken))).toMatchObject({
      status: 422,
      key: 'device.laser_profile_invalid',
      fields: { 'laserProfile.spotSizeUm': ['device.laser_profile_invalid'], 'laserProfile.modes.continuous.powerMw': ['device.laser_profile_invalid'] },
    });
    const stored = await server.db.selectFrom('devices').select('laser_profile').where('id', '=', device).executeTakeFirstOrThrow();
    expect(stored.laser_profile).toEqual(YELLOW_LASER_PROFILE);
  });

  it('answers 404 for another clinic’s device and leaves it unchanged', async () => {
    expect(await refusal(updateLaserProfile(server.ctx, admin, otherDevice, GREEN_LASER_PROFILE))).toMatchObject({ status: 404 });
    const stored = await server.db.selectFrom('devices').select('laser_profile').where('id', '=', otherDevice).executeTakeFirstOrThrow();
    expect(stored.laser_profile).toEqual(YELLOW_LASER_PROFILE);
  });

  it('saves the profile, answers the device with it, and audits the change with the profile before', async () => {
    const listed = async () => (await listDevices(server.ctx, admin, {})).data.find((d) => d.id === device);
    expect((await listed())?.laserProfile).toEqual(YELLOW_LASER_PROFILE);
    const saved = await updateLaserProfile(server.ctx, admin, device, GREEN_LASER_PROFILE);
    expect(saved).toMatchObject({ id: device, laserProfile: GREEN_LASER_PROFILE });
    // The devices list, kept in memory while the clinic's devices are unchanged, shows it at once.
    expect(await listed()).toEqual(saved);
    const [entry] = await auditEntries(server.db, 'device.laser_profile_updated', device);
    expect(entry).toMatchObject({ outcome: 'success', actor_id: admin.userId });
    expect(entry!.detail).toEqual({ deviceId: saved.deviceId, before: YELLOW_LASER_PROFILE, after: GREEN_LASER_PROFILE });
  });
});
