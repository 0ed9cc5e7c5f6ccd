// The clinical limits a plan keeps whatever is drawn (issue 26, docs/clinical-limits.md), through HTTP on PGlite
// and on PostgreSQL (DATABASE_URL): each of the four unsafe plans and every other clinical refusal answers
// with its own code and a message naming its figures, in English and in German, and changes nothing; a safe
// proposed plan still signs off and its parameter set names the wavelength and the duty cycle; a bound above the
// titrated power is a physician's choice, recorded; the IT admin enters a device's laser profile (audited).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readParameterSet } from '../../src/domain/npt/read-npt';
import { GREEN_LASER_PROFILE, YELLOW_LASER_PROFILE } from '../../server/seed/laser-profiles';
import { smallExam } from './exam-files';
import { createClinic, createUser, PASSWORD, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { pdfText } from './pdf-text';
import { planToSignOff, zonesAsProposed } from './planning';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

let server: TestServer;
let clinicId: string;
const users: Record<string, { id: string; token: string }> = {};

async function member(role: string, firstName: string, lastName: string) {
  const user = await createUser(server.db, { clinicId, role, firstName, lastName });
  return { id: user.id, token: await sessionFor(server.db, user.id) };
}

beforeAll(async () => {
  server = await startServer();
  clinicId = await createClinic(server.db);
  users.physician = await member('clinic_physicians', 'Anna', 'Weber');
  users.nurse = await member('clinic_nurses', 'Miriam', 'Vogel');
  users.admin = await member('clinic_it_admins', 'Ida', 'Admin');
});
afterAll(() => server?.close());

let seed = 2600;
/** A processed session of a new patient (640 × 480 synthetic right eye, micropulse 100 µm, 2 ×, 15 ms, 90 mW, 5 %). */
async function newSession(): Promise<string> {
  seed += 1;
  const exam = await smallExam({ seed, name: `Safe${seed}`, secondName: 'Patient', deviceSideId: `SAFE-${seed}`, eye: 'OD' });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
  const answer = await server.call<Body>('POST', '/treatments', { token: users.nurse.token, form });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  await server.jobsIdle();
  return answer.body.data.treatment.id;
}

const plan = async (id: string) => (await server.call<Body>('GET', `/treatments/${id}/plan`, { token: users.physician.token })).body.data;
const save = (id: string, step: string, json: Body, lang: 'en' | 'de' = 'en', token = users.physician.token) =>
  server.call<Body>('POST', `/treatments/${id}/plan/${step}`, { token, json, lang });

/**
 * The same save refused in English and in German with `code` and `status`; the plan is as it was. Answers the
 * two messages (each checked to hold `en` and `de`).
 */
async function refusedInBoth(id: string, step: string, json: Body, expected: { status?: number; code: string; en: string[]; de: string[] }) {
  const before = await plan(id);
  for (const lang of ['en', 'de'] as const) {
    const answer = await save(id, step, json, lang);
    expect(answer.status, JSON.stringify(answer.body)).toBe(expected.status ?? 422);
    expect(answer.body.code).toBe(expected.code);
    for (const text of expected[lang]) expect(answer.body.message).toContain(text);
  }
  expect(await plan(id)).toEqual(before);
}

const signOff = (id: string, revision: number, lang: 'en' | 'de' = 'en') =>
  server.call<Body>('POST', `/treatments/${id}/confirm`, { token: users.physician.token, json: { revision, password: PASSWORD, confirm: true }, lang });

describe("the issue's four unsafe plans are refused", () => {
  it('a FAZ drawn 1 px wide and a ring from 0 µm: spots within the foveal minimum (plan.spot_near_fovea)', async () => {
    const id = await newSession();
    const proposed = await plan(id);
    const zones = zonesAsProposed(proposed);
    zones.faz.radiusXPx = zones.faz.radiusYPx = 1;
    const saved = await save(id, 'exclusion-zones', { revision: proposed.revision, ...zones });
    // The proposal keeps the foveal minimum whatever FAZ is drawn: its ring starts at 600 µm.
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.gridSettings.innerRadiusUm).toBe(600);
    const settings = { ...saved.body.data.gridSettings, innerRadiusUm: 0 };
    await refusedInBoth(id, 'macula-grid', { revision: saved.body.data.revision, settings }, {
      code: 'plan.spot_near_fovea',
      en: ['Laser spots closer to the fovea than 600 µm (spot edge): ', '; the closest at '],
      de: ['Laserspots näher an der Fovea als 600 µm (Spotrand): ', '; der nächste bei '],
    });
  });

  it('a spacing of 0.5 with 200 µm spots: overlapping spots (plan.spacing_too_small)', async () => {
    const id = await newSession();
    const proposed = await plan(id);
    const zones = await save(id, 'exclusion-zones', { revision: proposed.revision, ...zonesAsProposed(proposed) });
    const settings = { ...zones.body.data.gridSettings, spotSizeUm: 200, spacing: 0.5 };
    await refusedInBoth(id, 'macula-grid', { revision: zones.body.data.revision, settings }, {
      code: 'plan.spacing_too_small',
      en: ['A spacing of 0.5 spot diameters', 'at least 1'],
      de: ['Ein Abstand von 0,5 Spotdurchmessern', 'mindestens 1'],
    });
  });

  it('666 mW with bounds 0.5–1.5 and a 1,000 ms continuous pulse: a nurse may not raise the bound; pulse and irradiance refused', async () => {
    const id = await newSession();
    const proposed = await plan(id);
    const zones = await save(id, 'exclusion-zones', { revision: proposed.revision, ...zonesAsProposed(proposed) });
    const grid = await save(id, 'macula-grid', { revision: zones.body.data.revision, settings: { ...zones.body.data.gridSettings, spotSizeUm: 50 } });
    expect(grid.status, JSON.stringify(grid.body)).toBe(200);
    const atSignOff = grid.body.data;
    // Step 3: the nurse may not set powers above the titrated power …
    const refused = await save(id, 'brightness', { revision: atSignOff.revision, minFactor: 0.5, maxFactor: 1.5 }, 'de', users.nurse.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'plan.above_titration_physician_only' });
    expect(refused.body.message).toContain('Nur eine Ärztin oder ein Arzt');
    // … a physician may, and it is recorded with their name.
    const raised = await save(id, 'brightness', { revision: atSignOff.revision, minFactor: 0.5, maxFactor: 1.5 });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    expect(raised.body.data.brightness.aboveTitration).toMatchObject({ by: { id: users.physician.id, name: 'Anna Weber' } });
    const revision = raised.body.data.revision;
    await refusedInBoth(id, 'final-adjustments', { revision, laserDose: 666, laserMode: 'continuous', pulseDurationMs: 1000 }, {
      code: 'plan.pulse_out_of_range',
      en: ['1000 ms is outside 10–100 ms'],
      de: ['1000 ms liegt außerhalb von 10 bis 100 ms'],
    });
    await refusedInBoth(id, 'final-adjustments', { revision, laserDose: 666, laserMode: 'continuous', pulseDurationMs: 100 }, {
      code: 'plan.irradiance_too_high',
      en: ['Laser spots above 9550 W/cm²: '],
      de: ['Laserspots über 9550 W/cm²: '],
    });
  });

  it('an ONH drawn 2 px wide on the disc (plan.disc_not_covered) and a ring out to 6,000 µm (plan.ring_too_wide)', async () => {
    const id = await newSession();
    const proposed = await plan(id);
    const zones = zonesAsProposed(proposed);
    zones.onh = { center: proposed.opticDisc.center, radiusXPx: 2, radiusYPx: 2, rotationDeg: 0 };
    await refusedInBoth(id, 'exclusion-zones', { revision: proposed.revision, ...zones }, {
      code: 'plan.disc_not_covered',
      en: ['with 600 µm around its edge; it covers 0 µm'],
      de: ['mit 600 µm Abstand zu ihrem Rand', 'deckt 0 µm ab'],
    });
    const saved = await save(id, 'exclusion-zones', { revision: proposed.revision, ...zonesAsProposed(proposed) });
    const settings = { ...saved.body.data.gridSettings, outerRadiusUm: 6000 };
    await refusedInBoth(id, 'macula-grid', { revision: saved.body.data.revision, settings }, {
      code: 'plan.ring_too_wide',
      en: ['reaches 6000 µm', 'ends at 3000 µm'],
      de: ['reicht bis 6000 µm', 'endet bei 3000 µm'],
    });
  });
});

describe('the other clinical refusals', () => {
  it('laterality and the disc–fovea distance', async () => {
    const id = await newSession();
    const proposed = await plan(id);
    const { fovea, opticDisc } = proposed;
    expect(opticDisc.center.x).toBeGreaterThan(fovea.x);
    const zones = zonesAsProposed(proposed);
    // The fovea to the right of the disc in a right eye: the disc would lie temporal.
    zones.faz.center = { x: Math.min(proposed.imagedField.width - 30, opticDisc.center.x + 120), y: fovea.y };
    await refusedInBoth(id, 'exclusion-zones', { revision: proposed.revision, ...zones }, {
      code: 'plan.laterality_mismatch',
      en: ['nasal to the fovea'],
      de: ['nasal der Fovea'],
    });
    // The fovea 2,000 µm from the disc: no adult eye.
    const near = zonesAsProposed(proposed);
    near.faz.center = { x: opticDisc.center.x - 2000 / proposed.scale.umPerPixel, y: opticDisc.center.y };
    await refusedInBoth(id, 'exclusion-zones', { revision: proposed.revision, ...near }, {
      code: 'plan.disc_fovea_implausible',
      en: ['between 3760 and 6530 µm'],
      de: ['3760 bis 6530 µm'],
    });
  });

  it('micropulse duty cycle out of range, missing at sign-off, a mode the device lacks, an unknown device', async () => {
    const id = await newSession();
    const atSignOff = await planToSignOff(server, id, users.physician.token);
    await refusedInBoth(id, 'final-adjustments', { revision: atSignOff.revision, dutyCyclePercent: 20 }, {
      code: 'plan.duty_cycle_out_of_range',
      en: ['20 % is outside 5–15 %'],
      de: ['20 % liegt außerhalb von 5 bis 15 %'],
    });
    // Cleared, the save goes through (settings may be incomplete until sign-off), and sign-off refuses.
    const cleared = await save(id, 'final-adjustments', { revision: atSignOff.revision, dutyCyclePercent: null });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    const refused = await signOff(id, cleared.body.data.revision, 'de');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'plan.duty_cycle_missing', message: 'Der Mikropuls-Modus braucht einen Arbeitszyklus (Duty Cycle).' });

    const green = await server.db
      .insertInto('devices')
      .values({ clinic_id: clinicId, device_id: `GREEN-${seed}`, optical_head_id: 'OH-1', camera: 'C', description: null, sync_app_status: 'RUNNING', last_seen_at: null, laser_profile: JSON.stringify(GREEN_LASER_PROFILE) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await refusedInBoth(id, 'final-adjustments', { revision: cleared.body.data.revision, dutyCyclePercent: 5, treatmentDeviceId: green.id }, {
      code: 'plan.mode_not_offered',
      en: ['does not offer this laser mode'],
      de: ['bietet diesen Lasermodus nicht an'],
    });
    await refusedInBoth(id, 'final-adjustments', { revision: cleared.body.data.revision, treatmentDeviceId: '00000000-0000-4000-8000-000000000000' }, {
      code: 'plan.device_unknown',
      en: ['not one of your clinic'],
      de: ['gehört nicht zu Ihrer Klinik'],
    });
    // The clinic's lasers that can treat: those with a profile.
    const devices = await server.call<Body>('GET', `/treatments/${id}/treatment-devices`, { token: users.nurse.token });
    expect(devices.status).toBe(200);
    expect(devices.body.data.map((device: Body) => device.id)).toContain(green.id);
    expect(devices.body.data.every((device: Body) => device.laserProfile !== null)).toBe(true);
    expect((await server.call('GET', `/treatments/${id}/treatment-devices`, { token: users.admin.token })).status).toBe(403);
    // The green laser in continuous mode: the plan now follows its profile (532 nm), spacing 2 as the protocol asks.
    const continuous = await save(id, 'final-adjustments', { revision: cleared.body.data.revision, treatmentDeviceId: green.id, laserMode: 'continuous', pulseDurationMs: 50 });
    expect(continuous.status, JSON.stringify(continuous.body)).toBe(200);
    expect(continuous.body.data.safety.treatmentDevice).toMatchObject({ id: green.id, laserProfile: { wavelengthNm: 532 } });
    const session = (await server.call<Body>('GET', `/treatments/${id}`, { token: users.physician.token })).body.data;
    expect(session).toMatchObject({ laserMode: 'continuous', dutyCyclePercent: null });
  });

  it('a device without a laser profile: its plans cannot be signed off', async () => {
    const id = await newSession();
    const atSignOff = await planToSignOff(server, id, users.physician.token);
    expect(atSignOff.safety.treatmentDevice.laserProfile).toEqual(YELLOW_LASER_PROFILE);
    await server.db.updateTable('devices').set({ laser_profile: null }).where('clinic_id', '=', clinicId).where('device_id', '=', 'MLS-2041-0117').execute();
    try {
      for (const lang of ['en', 'de'] as const) {
        const refused = await signOff(id, atSignOff.revision, lang);
        expect(refused.status).toBe(409);
        expect(refused.body.code).toBe('plan.device_profile_missing');
        expect(refused.body.message).toContain(lang === 'en' ? 'No laser profile is known' : 'kein Laserprofil hinterlegt');
      }
    } finally {
      await server.db.updateTable('devices').set({ laser_profile: JSON.stringify(YELLOW_LASER_PROFILE) }).where('clinic_id', '=', clinicId).where('device_id', '=', 'MLS-2041-0117').execute();
    }
  });
});

describe('a safe proposed plan', () => {
  it('signs off as proposed; the parameter set names wavelength and duty cycle, every power at most the titrated power', async () => {
    const id = await newSession();
    const atSignOff = await planToSignOff(server, id, users.physician.token);
    expect(atSignOff.brightness).toMatchObject({ maxFactor: 1, aboveTitration: null });
    expect(atSignOff.brightness.excludedSpots).toBeGreaterThanOrEqual(0);
    const signed = await signOff(id, atSignOff.revision);
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    await server.jobsIdle();
    const download = await fetch(`${server.url}/api/treatments/${id}/parameter-set`, { headers: { Authorization: `Bearer ${users.physician.token}` } });
    expect(download.status).toBe(200);
    const read = readParameterSet(new Uint8Array(await download.arrayBuffer()));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const { laser, spots } = read.value.manifest.plan;
    expect(laser).toMatchObject({ laserMode: 'micropulse', dutyCyclePercent: 5, wavelengthNm: 577, spotSizeUm: 100, spotSpacing: 2 });
    expect(Math.max(...spots.map((spot) => spot.powerMw))).toBeLessThanOrEqual(90);
    expect(Math.min(...spots.map((spot) => Math.hypot(spot.xUm, spot.yUm) - 50))).toBeGreaterThanOrEqual(600);
  });
});

describe('a bound above the titrated power', () => {
  it('is named in the audit trail, the plan and the treatment report', async () => {
    const id = await newSession();
    const atSignOff = await planToSignOff(server, id, users.physician.token);
    const raised = await save(id, 'brightness', { revision: atSignOff.revision, maxFactor: 1.2 });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    const factors = raised.body.data.spots.map((spot: Body) => spot.powerFactor);
    expect(Math.max(...factors)).toBeGreaterThan(1);
    const trail = (await server.call<Body>('GET', `/treatments/${id}/audit`, { token: users.nurse.token, lang: 'de' })).body.data;
    expect(trail.at(-1).summary).toContain('Obergrenze über der titrierten Leistung, gewählt von Anna Weber.');
    expect((await signOff(id, raised.body.data.revision)).status).toBe(200);
    await server.jobsIdle();
    for (const lang of ['en', 'de'] as const) {
      const report = await server.call<Body>('GET', `/treatments/${id}/treatment-report`, { token: users.physician.token, lang });
      expect(report.status).toBe(200);
      const text = (await pdfText(new Uint8Array(report.body as unknown as Buffer))).join(' ');
      expect(text).toContain(lang === 'en' ? 'Above the titrated power' : 'Über der titrierten Leistung');
      expect(text).toContain('Anna Weber');
      expect(text).toContain(lang === 'en' ? '577 nm' : '577 nm');
    }
  });
});

describe("a device's laser profile", () => {
  it('is entered by the IT admin (audited), refused reversed or to others, and not another clinic’s', async () => {
    const device = await server.db.selectFrom('devices').select('id').where('clinic_id', '=', clinicId).where('device_id', '=', 'MLS-2041-0117').executeTakeFirstOrThrow();
    const profile = { ...YELLOW_LASER_PROFILE, wavelengthNm: 810 };
    const put = (json: Body, token = users.admin.token, lang: 'en' | 'de' = 'en', target = device.id) =>
      server.call<Body>('PUT', `/clinic/devices/${target}/laser-profile`, { token, json, lang });
    const saved = await put({ laserProfile: profile });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ message: 'Laser profile saved.', data: { id: device.id, laserProfile: profile } });
    const entry = await server.db.selectFrom('audit_log').select(['action', 'detail']).where('target_id', '=', device.id).where('action', '=', 'device.laser_profile_updated').executeTakeFirstOrThrow();
    expect(typeof entry.detail === 'string' ? JSON.parse(entry.detail) : entry.detail).toMatchObject({ before: YELLOW_LASER_PROFILE, after: profile });
    expect((await put({ laserProfile: YELLOW_LASER_PROFILE }, users.nurse.token)).status).toBe(403);
    const reversed = await put({ laserProfile: { ...YELLOW_LASER_PROFILE, spotSizeUm: { min: 500, max: 50 } } }, users.admin.token, 'de');
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors['laserProfile.spotSizeUm']).toEqual(['Bitte das Laserprofil prüfen: Das Minimum eines Bereichs darf sein Maximum nicht überschreiten.']);
    const otherClinic = await createClinic(server.db, 'Andere Klinik');
    const foreign = await server.db.selectFrom('devices').select('id').where('clinic_id', '=', otherClinic).executeTakeFirstOrThrow();
    expect((await put({ laserProfile: YELLOW_LASER_PROFILE }, users.admin.token, 'en', foreign.id)).status).toBe(404);
    expect((await put({ laserProfile: YELLOW_LASER_PROFILE })).status).toBe(200);
  });
});
