// A signed plan on its way to the laser (issue 29), through HTTP: sign-off queues the parameter set for the
// session's device when its sync app is enrolled; the device lists it, fetches equal bytes with the SHA-256 the
// plan names, confirms receipt (idempotent), and reports the delivery (idempotent; another report refused; only
// the plan's spots). Another device of the clinic sees nothing of it.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GREEN_LASER_PROFILE, YELLOW_LASER_PROFILE } from '../../server/seed/laser-profiles';
import { SAMPLE_DEVICE } from '../../server/seed/sample-exam';
import { smallExam } from './exam-files';
import { createClinic, createUser, PASSWORD, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { pdfText } from './pdf-text';
import { planToSignOff } from './planning';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let server: TestServer;
let clinicId: string;
const tokens: Record<'admin' | 'physician' | 'nurse', string> = { admin: '', physician: '', nurse: '' };
let laser: { id: string; credential: string };

async function enrol(deviceRowId: string): Promise<string> {
  const code = await server.call<Body>('POST', `/clinic/devices/${deviceRowId}/enrolment-code`, { token: tokens.admin });
  const enrolled = await server.call<Body>('POST', '/device/enrolment', { token: null, json: { code: code.body.data.enrolment.code, syncAppVersion: '1.0.0' } });
  expect(enrolled.status).toBe(200);
  return enrolled.body.data.credential;
}

let seed = 2950;
/** A session of the sample laser, signed off and packed; its treatment id and parameter set. */
async function signedSession(): Promise<{ id: string; parameterSet: Body; spots: Body[] }> {
  seed += 1;
  const exam = await smallExam({ seed, name: `Sent${seed}`, secondName: 'Patient', deviceSideId: `SENT-${seed}` });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
  const created = await server.call<Body>('POST', '/treatments', { token: tokens.nurse, form });
  expect(created.status).toBe(201);
  await server.jobsIdle();
  const id: string = created.body.data.treatment.id;
  const plan = await planToSignOff(server, id, tokens.nurse);
  const signed = await server.call<Body>('POST', `/treatments/${id}/confirm`, { token: tokens.physician, json: { revision: plan.revision, password: PASSWORD, confirm: true } });
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  await server.jobsIdle();
  const packed = (await server.call<Body>('GET', `/treatments/${id}`, { token: tokens.physician })).body.data;
  expect(packed.step).toBe('available');
  return { id, parameterSet: packed.plan.parameterSet, spots: packed.plan.spots.filter((spot: Body) => spot.enabled) };
}

const asDevice = (credential: string) => ({
  list: () => server.call<Body>('GET', '/device/parameter-sets', { token: credential }),
  file: (id: string) => fetch(`${server.url}/api/device/parameter-sets/${id}/file`, { headers: { Authorization: `Bearer ${credential}` } }),
  receipt: (id: string, sha256: string) => server.call<Body>('POST', `/device/parameter-sets/${id}/receipt`, { token: credential, json: { sha256 } }),
  delivery: (id: string, report: Body) => server.call<Body>('POST', `/device/parameter-sets/${id}/delivery`, { token: credential, json: report }),
});

beforeAll(async () => {
  server = await startServer();
  clinicId = await createClinic(server.db, 'Augenklinik Transfer');
  for (const [key, role] of [
    ['admin', 'clinic_it_admins'],
    ['physician', 'clinic_physicians'],
    ['nurse', 'clinic_nurses'],
  ] as const) {
    const user = await createUser(server.db, { clinicId, role, firstName: key, lastName: 'Test' });
    tokens[key] = await sessionFor(server.db, user.id, { days: 365 });
  }
  const sample = await server.db.selectFrom('devices').select('id').where('clinic_id', '=', clinicId).where('device_id', '=', SAMPLE_DEVICE.deviceId).executeTakeFirstOrThrow();
  laser = { id: sample.id, credential: await enrol(sample.id) };
});
afterAll(() => server.close());

describe('parameter sets to the laser', () => {
  it('sign-off → queued for the session’s laser → fetched with equal bytes and SHA-256 → received → treated', async () => {
    const { id, parameterSet, spots } = await signedSession();
    const device = asDevice(laser.credential);
    const waiting = (await device.list()).body.data.filter((transfer: Body) => transfer.treatmentId === id);
    expect(waiting).toEqual([
      expect.objectContaining({ status: 'queued', fileName: parameterSet.fileName, size: parameterSet.size, sha256: parameterSet.sha256, receivedAt: null }),
    ]);
    const transferId: string = waiting[0].id;

    const fetched = await device.file(transferId);
    expect(fetched.status).toBe(200);
    const bytes = new Uint8Array(await fetched.arrayBuffer());
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect({ size: bytes.length, sha256 }).toEqual({ size: parameterSet.size, sha256: parameterSet.sha256 });
    // The same bytes a person downloads.
    const byHand = await fetch(`${server.url}/api/treatments/${id}/parameter-set`, { headers: { Authorization: `Bearer ${tokens.physician}` } });
    expect(Buffer.from(await byHand.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

    expect((await device.receipt(transferId, '0'.repeat(64))).body).toMatchObject({ code: 'transfer.checksum_mismatch' });
    // Reporting before the receipt is refused.
    const early = await device.delivery(transferId, { outcome: 'treated', at: new Date().toISOString(), spots: [{ id: spots[0].id, powerMw: 100 }] });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('transfer.not_received');

    const received = await device.receipt(transferId, sha256);
    expect(received.status).toBe(200);
    expect(received.body.data).toMatchObject({ status: 'received' });
    const again = await device.receipt(transferId, sha256);
    expect(again.body.data).toEqual(received.body.data);

    const at = new Date(Date.now() - 60_000).toISOString();
    const fired = spots.slice(0, 3).map((spot) => ({ id: spot.id, powerMw: 120 }));
    const unknown = await device.delivery(transferId, { outcome: 'treated', at, spots: [...fired, { id: 999_999, powerMw: 100 }] });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors)).toEqual(['spots']);

    const treated = await device.delivery(transferId, { outcome: 'treated', at, spots: fired });
    expect(treated.status).toBe(200);
    expect(treated.body.data.status).toBe('treated');
    expect((await device.delivery(transferId, { outcome: 'treated', at, spots: fired })).status).toBe(200);
    const other = await device.delivery(transferId, { outcome: 'failed', at, reason: 'Changed my mind' });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('transfer.already_reported');
    // Done: nothing waits any more.
    expect((await device.list()).body.data.map((transfer: Body) => transfer.id)).not.toContain(transferId);

    const stored = await server.db.selectFrom('parameter_set_transfers').selectAll().where('id', '=', transferId).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ status: 'treated', delivery: fired });
    const audited = await server.db.selectFrom('audit_log').select(['action', 'actor_role']).where('target_id', '=', laser.id).where('action', 'like', 'device.%').orderBy('id').execute();
    expect(audited.map((row) => row.action)).toEqual(expect.arrayContaining(['device.parameter_set_fetched', 'device.parameter_set_received', 'device.delivery_treated']));
  });

  it('a failure is reported with the laser’s reason', async () => {
    const { id, parameterSet } = await signedSession();
    const device = asDevice(laser.credential);
    const transfer = (await device.list()).body.data.find((item: Body) => item.treatmentId === id);
    await device.receipt(transfer.id, parameterSet.sha256);
    const failed = await device.delivery(transfer.id, { outcome: 'failed', at: new Date().toISOString(), reason: 'Eye tracking lost before the first spot.' });
    expect(failed.body.data.status).toBe('failed');
    const stored = await server.db.selectFrom('parameter_set_transfers').select(['status', 'failure_reason']).where('id', '=', transfer.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'failed', failure_reason: 'Eye tracking lost before the first spot.' });
  });

  it('another device of the clinic sees nothing of it; a device not enrolled is sent nothing', async () => {
    const { id } = await signedSession();
    const added = await server.call<Body>('POST', '/clinic/devices', { token: tokens.admin, json: { deviceId: 'NAV-OTHER-0001', opticalHeadId: 'OH', camera: 'CCD' } });
    const otherCredential = await enrol(added.body.data.device.id);
    const other = asDevice(otherCredential);
    expect((await other.list()).body.data).toEqual([]);
    const mine = (await asDevice(laser.credential).list()).body.data.find((item: Body) => item.treatmentId === id);
    expect((await other.file(mine.id)).status).toBe(404);
    expect((await other.receipt(mine.id, '0'.repeat(64))).status).toBe(404);

    // Revoked: the laser is no longer sent what is signed off next.
    await server.call('DELETE', `/clinic/devices/${laser.id}/credential`, { token: tokens.admin });
    const next = await signedSession();
    const queued = await server.db.selectFrom('parameter_set_transfers').select('id').where('treatment_id', '=', next.id).execute();
    expect(queued).toEqual([]);
    laser.credential = await enrol(laser.id);
  });
});

describe('the transfer in the product', () => {
  const transferOf = async (id: string) => (await server.call<Body>('GET', `/treatments/${id}`, { token: tokens.nurse })).body.data.transfer;

  it('the session, the card and the patient list show each step; the report gains what was delivered', async () => {
    const { id, parameterSet, spots } = await signedSession();
    const queued = await transferOf(id);
    expect(queued).toMatchObject({ status: 'queued', device: { id: laser.id, deviceId: SAMPLE_DEVICE.deviceId }, receivedAt: null, finishedAt: null, deliveredSpots: null });
    const patientId: string = (await server.call<Body>('GET', `/treatments/${id}`, { token: tokens.nurse })).body.data.patientId;
    const card = async () => (await server.call<Body>('GET', `/patients/${patientId}/treatments`, { token: tokens.nurse })).body.data[0].transfer;
    const listed = async () => (await server.call<Body>('GET', `/patients/${patientId}`, { token: tokens.nurse })).body.data.transferStatus;
    expect(await card()).toEqual(queued);
    expect(await listed()).toBe('queued');

    const device = asDevice(laser.credential);
    await device.receipt(queued.id, parameterSet.sha256);
    expect(await transferOf(id)).toMatchObject({ status: 'received', receivedAt: expect.any(String) });
    expect(await listed()).toBe('received');
    const at = '2026-11-20T09:30:00.000Z';
    // The laser fired all but one spot, the first of them 20 % above the plan.
    const fired = spots.slice(1).map((spot, i) => ({ id: spot.id, powerMw: i === 0 ? Math.round(spot.powerMw * 1.2 * 10) / 10 : spot.powerMw }));
    expect((await device.delivery(queued.id, { outcome: 'treated', at, spots: fired })).status).toBe(200);
    expect(await transferOf(id)).toMatchObject({ status: 'treated', finishedAt: at, deliveredSpots: fired.length });
    expect(await card()).toMatchObject({ status: 'treated', finishedAt: at });
    // The patient list's page is read again after the change (its cached pages are dropped).
    const page = (await server.call<Body>('GET', `/patients?search=${encodeURIComponent('Patient')}`, { token: tokens.nurse })).body.data;
    expect(page.find((patient: Body) => patient.id === patientId).transferStatus).toBe('treated');

    const report = await fetch(`${server.url}/api/treatments/${id}/treatment-report?timeZone=UTC`, { headers: { Authorization: `Bearer ${tokens.physician}` } });
    expect(report.status).toBe(200);
    const text = (await pdfText(new Uint8Array(await report.arrayBuffer()))).join('\n');
    expect(text).toContain('Delivered by the laser');
    expect(text).toContain(`${fired.length} of ${spots.length} planned`);
    expect(text).toMatch(/Largest deviation from plan\s*\+\d+\.\d\smW\s\(\+20\.0\s%\)/);
    expect(text).toMatch(/Spots at another power than planned\s*1\b/);
  });

  it('a physician withdraws a transfer the laser has not received; the laser is told', async () => {
    const { id } = await signedSession();
    const queued = await transferOf(id);
    expect((await server.call('DELETE', `/treatments/${id}/transfer`, { token: tokens.nurse })).status).toBe(403);
    const cancelled = await server.call<Body>('DELETE', `/treatments/${id}/transfer`, { token: tokens.physician, lang: 'de' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.message).toBe('Die Übertragung an den Laser wurde zurückgezogen.');
    expect(cancelled.body.data).toMatchObject({ id: queued.id, status: 'cancelled', finishedAt: expect.any(String) });
    expect((await asDevice(laser.credential).file(queued.id)).status).toBe(409);
    const again = await server.call<Body>('DELETE', `/treatments/${id}/transfer`, { token: tokens.physician });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('transfer.not_cancellable');
    const audited = await server.db.selectFrom('audit_log').select(['action', 'actor_role']).where('target_id', '=', id).where('action', '=', 'transfer.cancelled').execute();
    expect(audited).toEqual([{ action: 'transfer.cancelled', actor_role: 'clinic_physicians' }]);
  });

  it('sends again, to another laser that can deliver the plan, and not once a laser received it', async () => {
    const { id, parameterSet } = await signedSession();
    const first = await transferOf(id);
    const add = async (deviceId: string, profile: typeof YELLOW_LASER_PROFILE | null, enrolled: boolean) => {
      const added = await server.call<Body>('POST', '/clinic/devices', { token: tokens.admin, json: { deviceId, opticalHeadId: 'OH', camera: 'CCD' } });
      const deviceRowId: string = added.body.data.device.id;
      if (profile) expect((await server.call('PUT', `/clinic/devices/${deviceRowId}/laser-profile`, { token: tokens.admin, json: { laserProfile: profile } })).status).toBe(200);
      return { id: deviceRowId, credential: enrolled ? await enrol(deviceRowId) : null };
    };
    const send = (deviceId: string, lang?: 'en' | 'de') => server.call<Body>('POST', `/treatments/${id}/transfer`, { token: tokens.physician, json: { deviceId }, lang });
    const second = await add(`NAV-YELLOW-${seed}`, YELLOW_LASER_PROFILE, true);
    const green = await add(`NAV-GREEN-${seed}`, GREEN_LASER_PROFILE, true);
    const offline = await add(`NAV-NOAPP-${seed}`, YELLOW_LASER_PROFILE, false);

    expect((await send(green.id)).body.code).toBe('transfer.device_cannot_deliver');
    expect((await send(offline.id)).body.code).toBe('transfer.device_not_enrolled');
    const unknown = await send('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors)).toEqual(['deviceId']);
    expect((await server.call('POST', `/treatments/${id}/transfer`, { token: tokens.nurse, json: { deviceId: second.id } })).status).toBe(403);

    const sent = await send(second.id, 'de');
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.message).toBe(`Der Parametersatz wurde an NAV-YELLOW-${seed} gesendet.`);
    expect(sent.body.data).toMatchObject({ status: 'queued', device: { id: second.id } });
    // The first laser's transfer is withdrawn; only the second laser is sent it.
    expect((await asDevice(laser.credential).list()).body.data.map((item: Body) => item.id)).not.toContain(first.id);
    const waiting = (await asDevice(second.credential!).list()).body.data;
    expect(waiting).toEqual([expect.objectContaining({ id: sent.body.data.id, treatmentId: id, sha256: parameterSet.sha256 })]);

    expect((await asDevice(second.credential!).receipt(sent.body.data.id, parameterSet.sha256)).status).toBe(200);
    const refused = await send(laser.id);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('transfer.already_received');
    expect((await server.call<Body>('DELETE', `/treatments/${id}/transfer`, { token: tokens.physician })).body.code).toBe('transfer.not_cancellable');
    const audited = await server.db.selectFrom('audit_log').select('detail').where('target_id', '=', id).where('action', '=', 'transfer.sent').execute();
    expect(audited).toEqual([{ detail: expect.objectContaining({ transferId: sent.body.data.id, replacedTransferId: first.id }) }]);
  });

  it('after a failure, the same laser is sent it again', async () => {
    const { id, parameterSet } = await signedSession();
    const first = await transferOf(id);
    const device = asDevice(laser.credential);
    await device.receipt(first.id, parameterSet.sha256);
    await device.delivery(first.id, { outcome: 'failed', at: new Date().toISOString(), reason: 'Patient moved; treatment stopped.' });
    expect(await transferOf(id)).toMatchObject({ status: 'failed', failureReason: 'Patient moved; treatment stopped.' });
    const again = await server.call<Body>('POST', `/treatments/${id}/transfer`, { token: tokens.physician, json: { deviceId: laser.id } });
    expect(again.status).toBe(200);
    expect(await transferOf(id)).toMatchObject({ id: again.body.data.id, status: 'queued', failureReason: null });
  });
});
