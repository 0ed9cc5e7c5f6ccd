// The previous treatment on today's image through HTTP (issue 17): a patient's eye planned in session 1 and
// photographed again (turned, scaled, shifted, other exposure) for session 2; session 2's answer registers the
// first image onto its own in the background and then carries session 1's spots and zones onto it, each close to
// where the true pose puts it and within the stated uncertainty; found again when a physician moves today's
// fovea. Clinic scoping, roles, the lock and the states.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySimilarity } from '../../src/domain/registration/similarity';
import { buildSampleExam, poseTransform, SAMPLE_DEVICE, type SamplePose } from '../../server/seed/sample-exam';
import { createClinic, createUser, PASSWORD, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { planToSignOff, zonesAsProposed } from './planning';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

const WIDTH = 800;
const HEIGHT = 600;
const POSE: SamplePose = { rotationDeg: 7, scale: 1.05, shiftPx: { x: 24, y: -16 }, gain: 1.1 };

let server: TestServer;
const tokens: Record<'physician' | 'nurse' | 'itAdmin' | 'otherClinic', string> = { physician: '', nurse: '', itAdmin: '', otherClinic: '' };
let first: { id: string; patientId: string };
let second: { id: string };
let clinicId: string;

async function upload(bytes: Uint8Array, patientId?: string): Promise<Body> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'exam.npt');
  const answer = await server.call<Body>('POST', `/treatments${patientId ? `?patientId=${patientId}` : ''}`, { token: tokens.physician, form });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  await server.jobsIdle();
  return answer.body.data;
}

const previous = (id: string, token = tokens.physician, lang?: 'en' | 'de') =>
  server.call<Body>('GET', `/treatments/${id}/previous-treatment`, { token, lang });

beforeAll(async () => {
  server = await startServer();
  clinicId = await createClinic(server.db);
  for (const [key, role] of [
    ['physician', 'clinic_physicians'],
    ['nurse', 'clinic_nurses'],
    ['itAdmin', 'clinic_it_admins'],
  ] as const) {
    tokens[key] = await sessionFor(server.db, (await createUser(server.db, { clinicId, role })).id);
  }
  const clinicB = await createClinic(server.db, 'Augenklinik B');
  tokens.otherClinic = await sessionFor(server.db, (await createUser(server.db, { clinicId: clinicB, role: 'clinic_physicians' })).id);

  const person = { name: 'Maria', secondName: 'Vogt', birthday: '1950-03-04', gender: 'female' as const, deviceSideId: 'PREV-1', eye: 'OD' as const };
  const examA = await buildSampleExam({ ...person, seed: 501, width: WIDTH, height: HEIGHT, capturedAt: '2026-05-04T09:00:00+02:00' });
  const a = await upload(examA.bytes);
  first = { id: a.treatment.id, patientId: a.patient.id };
  const examB = await buildSampleExam({
    ...person,
    seed: 502,
    width: WIDTH,
    height: HEIGHT,
    capturedAt: '2026-08-04T09:00:00+02:00',
    sameEyeAs: { seed: 501, pose: POSE },
  });
  second = { id: (await upload(examB.bytes, first.patientId)).treatment.id };
});
afterAll(() => server?.close());

describe('before session 1 has a planned grid', () => {
  it('says there is no previous treatment, for session 1 and session 2', async () => {
    for (const id of [first.id, second.id]) {
      const answer = await previous(id);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ state: 'none', session: null, registration: null, spots: [] });
    }
  });
});

describe('session 1 planned', () => {
  let plan: Body;
  beforeAll(async () => {
    plan = await planToSignOff(server, first.id, tokens.physician);
  });

  it('registers session 1’s image onto session 2’s in the background, then answers with it', async () => {
    const pending = await previous(second.id, tokens.nurse);
    expect(pending.body.data).toMatchObject({ state: 'pending', session: { id: first.id, number: 1, signedOff: false, signedOffAt: null } });
    await server.jobsIdle();
    const answer = await previous(second.id, tokens.nurse);
    const data = answer.body.data;
    expect(data.state).toBe('registered');
    expect(data.registration.method).toBe('vessels');
    expect(data.registration.vesselAgreement).toBeGreaterThan(0.6);
    expect(data.registration.rotationDeg).toBeCloseTo(POSE.rotationDeg, 0);
    expect(data.registration.scale).toBeCloseTo(POSE.scale, 2);

    // Every spot not removed, each where the true pose puts it, within the stated uncertainty.
    const truth = poseTransform(POSE, WIDTH, HEIGHT);
    const enabled = plan.spots.filter((spot: Body) => spot.enabled);
    expect(data.spots).toHaveLength(enabled.length);
    const umPerPixel = (await server.call<Body>('GET', `/treatments/${second.id}/plan`, { token: tokens.nurse })).body.data.scale.umPerPixel;
    const errorsUm = enabled.map((spot: Body, i: number) => {
      const want = applySimilarity(truth, spot as { x: number; y: number });
      return Math.hypot(data.spots[i].x - want.x, data.spots[i].y - want.y) * umPerPixel;
    });
    expect(Math.max(...errorsUm)).toBeLessThanOrEqual(data.registration.uncertaintyUm);
    expect(data.registration.uncertaintyUm).toBeLessThan(100);
    expect(data.spots[0].powerMw).toBe(enabled[0].powerMw);
    // The zones too: FAZ and ONH, turned with the image.
    const faz = data.exclusionZones.find((zone: Body) => zone.kind === 'FAZ');
    const want = applySimilarity(truth, plan.exclusionZones.faz.center);
    expect(Math.hypot(faz.center.x - want.x, faz.center.y - want.y) * umPerPixel).toBeLessThanOrEqual(data.registration.uncertaintyUm);
    expect(faz.radiusXPx).toBeCloseTo(plan.exclusionZones.faz.radiusXPx * POSE.scale, 0);
    expect(data.spotDiameterPx).toBeCloseTo(plan.gridSettings.spotSizeUm / umPerPixel, 6);
  });

  it('registers once: a second reader finds it done, and exactly one job ran', async () => {
    expect((await previous(second.id)).body.data.state).toBe('registered');
    const jobs = await server.db.selectFrom('jobs').select(['state']).where('kind', '=', 'treatment.register').execute();
    expect(jobs).toEqual([{ state: 'done' }]);
  });

  it('is found again when a physician moves today’s fovea, from where it now is, once', async () => {
    const plan = (await server.call<Body>('GET', `/treatments/${second.id}/plan`, { token: tokens.physician })).body.data;
    const zones = zonesAsProposed(plan);
    const fovea = { x: zones.faz.center.x + 12, y: zones.faz.center.y - 8 };
    const moved = await server.call<Body>('POST', `/treatments/${second.id}/plan/exclusion-zones`, {
      token: tokens.physician,
      json: { revision: plan.revision, ...zones, faz: { ...zones.faz, center: fovea } },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // Two readers before the job ran: both told it is pending, one job queued.
    expect((await previous(second.id)).body.data.state).toBe('pending');
    expect((await previous(second.id, tokens.nurse)).body.data.state).toBe('pending');
    await server.jobsIdle();
    const data = (await previous(second.id)).body.data;
    expect(data.state).toBe('registered');
    expect(data.registration.method).toBe('vessels');
    expect(data.registration.rotationDeg).toBeCloseTo(POSE.rotationDeg, 0);
    const row = await server.db.selectFrom('treatment_registrations').select('landmarks').where('treatment_id', '=', second.id).executeTakeFirstOrThrow();
    expect(row.landmarks?.today.fovea).toEqual(fovea);
    // Unmoved since: read again, nothing queued.
    expect((await previous(second.id)).body.data.state).toBe('registered');
    const jobs = await server.db.selectFrom('jobs').select(['state']).where('kind', '=', 'treatment.register').execute();
    expect(jobs).toEqual([{ state: 'done' }, { state: 'done' }]);
  });

  it('shows the earlier plan as it now stands: signed off', async () => {
    const signed = await server.call<Body>('POST', `/treatments/${first.id}/confirm`, {
      token: tokens.physician,
      json: { revision: plan.revision, password: PASSWORD, confirm: true },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const data = (await previous(second.id)).body.data;
    expect(data.session.signedOff).toBe(true);
    expect(Date.parse(data.session.signedOffAt)).not.toBeNaN();
  });

  it('once the laser reported session 1 treated, shows the spots it fired with the powers it delivered', async () => {
    // Session 1's laser gets a sync app after sign-off: the physician sends the parameter set to it.
    await server.jobsIdle();
    const laser = await server.db.selectFrom('devices').select('id').where('clinic_id', '=', clinicId).where('device_id', '=', SAMPLE_DEVICE.deviceId).executeTakeFirstOrThrow();
    const code = await server.call<Body>('POST', `/clinic/devices/${laser.id}/enrolment-code`, { token: tokens.itAdmin });
    const credential = (await server.call<Body>('POST', '/device/enrolment', { token: null, json: { code: code.body.data.enrolment.code, syncAppVersion: '1.0.0' } })).body.data.credential;
    const sent = await server.call<Body>('POST', `/treatments/${first.id}/transfer`, { token: tokens.physician, json: { deviceId: laser.id } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const transferId: string = sent.body.data.id;
    const sha256 = (await server.call<Body>('GET', `/treatments/${first.id}`, { token: tokens.physician })).body.data.plan.parameterSet.sha256;
    expect((await server.call('POST', `/device/parameter-sets/${transferId}/receipt`, { token: credential, json: { sha256 } })).status).toBe(200);
    // The laser fired every other planned spot, 10 % below the planned power.
    const enabled = plan.spots.filter((spot: Body) => spot.enabled);
    const fired = enabled.filter((_: Body, i: number) => i % 2 === 0).map((spot: Body) => ({ id: spot.id, powerMw: Math.round(spot.powerMw * 0.9) }));
    const at = '2026-05-04T10:15:00.000Z';
    const reported = await server.call<Body>('POST', `/device/parameter-sets/${transferId}/delivery`, { token: credential, json: { outcome: 'treated', at, spots: fired } });
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);

    const data = (await previous(second.id)).body.data;
    expect(data.state).toBe('registered');
    expect(data.session).toMatchObject({ id: first.id, treatedAt: at });
    expect(data.spots.map((spot: Body) => spot.powerMw)).toEqual(fired.map((spot: Body) => spot.powerMw));
    // Each where the registration puts the planned spot it was.
    const truth = poseTransform(POSE, WIDTH, HEIGHT);
    const umPerPixel = (await server.call<Body>('GET', `/treatments/${second.id}/plan`, { token: tokens.nurse })).body.data.scale.umPerPixel;
    const firedSpots = enabled.filter((_: Body, i: number) => i % 2 === 0);
    const errorsUm = firedSpots.map((spot: Body, i: number) => {
      const want = applySimilarity(truth, spot as { x: number; y: number });
      return Math.hypot(data.spots[i].x - want.x, data.spots[i].y - want.y) * umPerPixel;
    });
    expect(Math.max(...errorsUm)).toBeLessThanOrEqual(data.registration.uncertaintyUm);
    // The session shows it: treated, with the spots fired.
    const session = (await server.call<Body>('GET', `/treatments/${first.id}`, { token: tokens.nurse })).body.data;
    expect(session.transfer).toMatchObject({ id: transferId, status: 'treated', finishedAt: at, deliveredSpots: fired.length, failureReason: null });
  });

  it('the earlier session itself has no previous treatment', async () => {
    expect((await previous(first.id)).body.data.state).toBe('none');
  });

  it('is the clinic’s own: another clinic gets 404, an IT admin 403, no token 401', async () => {
    expect((await previous(second.id, tokens.otherClinic)).status).toBe(404);
    expect((await previous(second.id, tokens.itAdmin)).status).toBe(403);
    expect((await server.call('GET', `/treatments/${second.id}/previous-treatment`)).status).toBe(401);
    expect((await previous('not-a-uuid')).status).toBe(404);
  });

  it('stays readable on a locked session', async () => {
    const report = await server.call<Body>('POST', `/treatments/${second.id}/reports`, { token: tokens.nurse, json: { reason: 'Image blurred' } });
    expect(report.status).toBe(200);
    expect((await previous(second.id, tokens.nurse)).body.data.state).toBe('registered');
  });
});

describe('more than one earlier planned session', () => {
  let third: { id: string };
  let fourth: { id: string };
  beforeAll(async () => {
    const person = { name: 'Maria', secondName: 'Vogt', birthday: '1950-03-04', gender: 'female' as const, deviceSideId: 'PREV-1', eye: 'OD' as const };
    const again = (seed: number, capturedAt: string, pose: SamplePose) =>
      buildSampleExam({ ...person, seed, width: WIDTH, height: HEIGHT, capturedAt, sameEyeAs: { seed: 501, pose } });
    third = { id: (await upload((await again(503, '2026-09-04T09:00:00+02:00', { ...POSE, rotationDeg: -4 })).bytes, first.patientId)).treatment.id };
    await planToSignOff(server, third.id, tokens.physician); // planned, never signed off
    fourth = { id: (await upload((await again(504, '2026-10-04T09:00:00+02:00', { ...POSE, rotationDeg: 3 })).bytes, first.patientId)).treatment.id };
  }, 120_000); // two uploads processed and one plan: a minute when the machine is shared with other suites

  // Two registrations in the background, each a few seconds alone and up to half a minute on a shared machine.

  it('offers each of them, signed-off first, and shows the signed-off one unless another is asked for', async () => {
    const answer = (await previous(fourth.id)).body.data;
    expect(answer.earlierSessions.map((session: Body) => [session.id, session.signedOff])).toEqual([
      [first.id, true],
      [third.id, false],
    ]);
    expect(answer.session.id).toBe(first.id);
    await server.jobsIdle();
    expect((await previous(fourth.id)).body.data).toMatchObject({ state: 'registered', session: { id: first.id } });

    const asked = () => server.call<Body>('GET', `/treatments/${fourth.id}/previous-treatment?earlierSessionId=${third.id}`, { token: tokens.nurse });
    expect((await asked()).body.data).toMatchObject({ state: 'pending', session: { id: third.id, number: 3, signedOff: false } });
    await server.jobsIdle();
    const shown = (await asked()).body.data;
    expect(shown).toMatchObject({ state: 'registered', session: { id: third.id } });
    expect(shown.spots.length).toBeGreaterThan(0);
    // The signed-off one is still registered: each pair is kept.
    expect((await previous(fourth.id)).body.data).toMatchObject({ state: 'registered', session: { id: first.id } });
  }, 150_000);

  it('refuses a session that is not an earlier planned one of this eye, in the reader’s language', async () => {
    for (const id of [fourth.id, second.id, '0b6d2f84-3e1a-4c79-a5d0-8b9c1e6f7a23']) {
      for (const [lang, message] of [
        ['en', 'This is not an earlier planned session of this eye.'],
        ['de', 'Dies ist keine frühere Sitzung mit Behandlungsplan an diesem Auge.'],
      ] as const) {
        const refused = await server.call<Body>('GET', `/treatments/${fourth.id}/previous-treatment?earlierSessionId=${id}`, { token: tokens.physician, lang });
        expect(refused.status).toBe(422);
        expect(refused.body).toMatchObject({ code: 'request.invalid', errors: { earlierSessionId: [message] } });
      }
    }
    const malformed = await server.call<Body>('GET', `/treatments/${fourth.id}/previous-treatment?earlierSessionId=session-1`, { token: tokens.physician });
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors).toHaveProperty('earlierSessionId');
  });

  it('session 2, which was never planned, is not offered', async () => {
    const answer = (await previous(fourth.id)).body.data;
    expect(answer.earlierSessions.map((session: Body) => session.id)).not.toContain(second.id);
  });
});
