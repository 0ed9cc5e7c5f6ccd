// @vitest-environment node
// The server's part of the plan checks (clinical-safety.ts): which device treats a session, and the plan and
// laser settings the invariants are given. Against a real database (PGlite in memory, or PostgreSQL under
// DATABASE_URL in a schema of its own), so that it is also fast enough for the mutation run (stryker.config.mjs).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database';
import { dropSchema, migrate } from '../db/migrate';
import type { Database, StoredPlan, TreatmentRow } from '../db/tables';
import { DEFAULT_CLINICAL_LIMITS, type LaserProfile } from '../../src/domain/planning/clinical-limits';
import { checkContextOf, checkedPlanOf, clinicalLimitsOf, planLaserOf, planSafetyOf, treatmentDeviceOf, treatmentDevicesOf } from './clinical-safety';

const profile = (wavelengthNm: number): LaserProfile => ({
  wavelengthNm,
  spotSizeUm: { min: 50, max: 500 },
  modes: { micropulse: { powerMw: { min: 50, max: 2000 }, pulseMs: { min: 10, max: 300 }, dutyCyclePercent: { min: 5, max: 15 } } },
});

/** A session row as the database gives it: numeric columns may come back as strings. */
function session(fields: Partial<TreatmentRow>): TreatmentRow {
  return {
    eye: 'OD',
    spot_size_um: null,
    spot_spacing: null,
    pulse_duration_ms: null,
    laser_mode: null,
    iol_status: null,
    laser_dose: null,
    duty_cycle_percent: null,
    device_id: null,
    treatment_device_id: null,
    ...fields,
  } as TreatmentRow;
}

let db: Database;
let schema: string | undefined;
let clinic: string;
let otherClinic: string;
const devices: Record<string, string> = {};

beforeAll(async () => {
  const databaseUrl = process.env.DATABASE_URL || null;
  schema = databaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined;
  let kind: 'pglite' | 'postgres';
  ({ db, kind } = await openDatabase({ databaseUrl, pgliteDir: 'memory://', schema }));
  await migrate(db, { kind, schema });
  const clinics = await db.insertInto('clinics').values([{ name: 'Augenklinik' }, { name: 'Other' }]).returning('id').execute();
  [clinic, otherClinic] = clinics.map((row) => row.id);
  const device = (clinicId: string, deviceId: string, laserProfile: LaserProfile | null) => ({
    clinic_id: clinicId,
    device_id: deviceId,
    optical_head_id: `head-${deviceId}`,
    camera: 'camera',
    description: `Laser ${deviceId}`,
    sync_app_status: 'online',
    laser_profile: laserProfile && JSON.stringify(laserProfile),
  });
  const rows = await db
    .insertInto('devices')
    .values([device(clinic, 'NAV-2', profile(577)), device(clinic, 'NAV-1', profile(532)), device(clinic, 'NAV-3', null), device(otherClinic, 'NAV-9', profile(810))])
    .returning(['id', 'device_id'])
    .execute();
  for (const row of rows) devices[row.device_id] = row.id;
}, 60_000);

afterAll(async () => {
  if (schema) await dropSchema(db, schema);
  await db?.destroy();
});

describe('the device that treats a session', () => {
  it('is the one chosen in the final adjustments, with its profile', async () => {
    const device = await treatmentDeviceOf(db, session({ clinic_id: clinic, device_id: 'NAV-1', treatment_device_id: devices['NAV-2'] }));
    expect(device).toEqual({ id: devices['NAV-2'], deviceId: 'NAV-2', description: 'Laser NAV-2', laserProfile: profile(577), enrolled: false });
  });

  it('is the one chosen also for a session whose exam named no device', async () => {
    const device = await treatmentDeviceOf(db, session({ clinic_id: clinic, treatment_device_id: devices['NAV-1'] }));
    expect(device?.deviceId).toBe('NAV-1');
  });

  it('is else the clinic\'s device the exam came from', async () => {
    const device = await treatmentDeviceOf(db, session({ clinic_id: clinic, device_id: 'NAV-3' }));
    expect(device).toEqual({ id: devices['NAV-3'], deviceId: 'NAV-3', description: 'Laser NAV-3', laserProfile: null, enrolled: false });
  });

  it('says whether its sync app is enrolled (a parameter set can be sent to it)', async () => {
    await db.updateTable('devices').set({ credential_hash: 'a'.repeat(64) }).where('id', '=', devices['NAV-2']).execute();
    try {
      expect((await treatmentDeviceOf(db, session({ clinic_id: clinic, treatment_device_id: devices['NAV-2'] })))?.enrolled).toBe(true);
    } finally {
      await db.updateTable('devices').set({ credential_hash: null }).where('id', '=', devices['NAV-2']).execute();
    }
  });

  it('is none without either, or when the device is another clinic\'s', async () => {
    expect(await treatmentDeviceOf(db, session({ clinic_id: clinic }))).toBeNull();
    expect(await treatmentDeviceOf(db, session({ clinic_id: clinic, device_id: 'NAV-9' }))).toBeNull();
    expect(await treatmentDeviceOf(db, session({ clinic_id: clinic, treatment_device_id: devices['NAV-9'] }))).toBeNull();
  });

  it('is offered among the clinic\'s devices with a laser profile, by device id', async () => {
    const offered = await treatmentDevicesOf(db, clinic);
    expect(offered.map((device) => [device.deviceId, device.laserProfile?.wavelengthNm])).toEqual([
      ['NAV-1', 532],
      ['NAV-2', 577],
    ]);
    expect(offered[0]).toEqual({ id: devices['NAV-1'], deviceId: 'NAV-1', description: 'Laser NAV-1', laserProfile: profile(532), enrolled: false });
  });

  it('is named with the clinic\'s limits in the plan\'s safety, and its profile is what the check is given', async () => {
    const row = session({ clinic_id: clinic, device_id: 'NAV-1' });
    expect(clinicalLimitsOf()).toEqual(DEFAULT_CLINICAL_LIMITS);
    expect(await planSafetyOf(db, row)).toEqual({ limits: DEFAULT_CLINICAL_LIMITS, treatmentDevice: await treatmentDeviceOf(db, row) });
    const field = { widthUm: 9000, heightUm: 9000 } as never;
    expect(await checkContextOf(db, row, field)).toEqual({ field, clinical: DEFAULT_CLINICAL_LIMITS, profile: profile(532) });
    expect(await checkContextOf(db, session({ clinic_id: clinic }), field)).toEqual({ field, clinical: DEFAULT_CLINICAL_LIMITS, profile: null });
  });
});

describe('the plan and laser settings the check reads', () => {
  const micropulse = session({
    eye: 'OS',
    laser_mode: 'micropulse',
    pulse_duration_ms: '200' as never,
    duty_cycle_percent: '5' as never,
    spot_size_um: '200' as never,
    spot_spacing: '1.5' as never,
    laser_dose: '0.9' as never,
  });

  it('are the session\'s settings as numbers, the duty cycle only in micropulse', () => {
    expect(planLaserOf(micropulse)).toEqual({ laserMode: 'micropulse', pulseDurationMs: 200, dutyCyclePercent: 5, spotSizeUm: 200, spotSpacing: 1.5 });
    expect(planLaserOf({ ...micropulse, laser_mode: 'continuous' })).toEqual({
      laserMode: 'continuous',
      pulseDurationMs: 200,
      dutyCyclePercent: null,
      spotSizeUm: 200,
      spotSpacing: 1.5,
    });
    expect(planLaserOf(session({}))).toEqual({ laserMode: null, pulseDurationMs: null, dutyCyclePercent: null, spotSizeUm: null, spotSpacing: null });
  });

  it('are the stored plan with the session\'s eye, dose and laser', () => {
    const plan = {
      scale: { umPerPixel: 5, source: 'manifest' },
      fovea: { x: 800, y: 600 },
      opticDisc: null,
      exclusionZones: { faz: { kind: 'FAZ' }, onh: { kind: 'ONH' } },
      spots: [],
    } as unknown as StoredPlan;
    expect(checkedPlanOf(plan, micropulse)).toEqual({ ...plan, eye: 'OS', laserDose: 0.9, laser: planLaserOf(micropulse) });
  });
});
