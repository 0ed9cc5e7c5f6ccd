// Devices as API clients (issue 29), through HTTP: an IT admin adds a device and is shown a one-time code; the
// sync app exchanges it for a credential and sends heartbeats; silence makes it Offline; a revoked credential
// is refused; another clinic sees nothing of it.
import type { Channel } from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelName } from '../../src/domain/realtime/events';
import { markSilentDevicesOffline } from '../../server/services/device-sync';
import { smallExam } from './exam-files';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { realtimeClient, subscribed, waitFor } from './realtime-client';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let server: TestServer;
let clinicId: string;
let adminToken: string;
let adminBToken: string;
let physicianToken: string;
let serial = 0;

const newSerial = () => `NAV-TEST-${String(++serial).padStart(4, '0')}`;

async function addDevice(token = adminToken, deviceId = newSerial()) {
  return server.call<Body>('POST', '/clinic/devices', { token, json: { deviceId, opticalHeadId: 'OH-1', camera: 'Fundus CCD 5MP', description: 'Laser room 9' } });
}

const enrol = (code: string, headers: Record<string, string> = {}) =>
  server.call<Body>('POST', '/device/enrolment', { token: null, json: { code, syncAppVersion: '1.0.0' }, headers });

function examForm(bytes: Uint8Array, name = 'exam.npt') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return form;
}

const uploadFrom = (credential: string, bytes: Uint8Array) => server.call<Body>('POST', '/device/exams', { token: credential, form: examForm(bytes) });

const heartbeat = (credential: string | null, version = '1.0.0') => server.call<Body>('POST', '/device/heartbeat', { token: credential, json: { syncAppVersion: version } });

async function listed(token = adminToken, search?: string): Promise<Body[]> {
  const answer = await server.call<Body>('GET', `/clinic/devices?perPage=100${search ? `&search=${search}` : ''}`, { token });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

/** The next `devices.changed` on the channel that names the device (others' sweeps may come first). */
const changeOf = (channel: Channel, id: string) =>
  waitFor<Body>((resolve) =>
    channel.bind('devices.changed', (payload: Body) => {
      if (payload.deviceIds.includes(id)) resolve(payload);
    }),
  );

/** A device added and enrolled: its row id, serial and credential. */
async function enrolledDevice() {
  const added = await addDevice();
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const enrolled = await enrol(added.body.data.enrolment.code);
  expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);
  return { id: added.body.data.device.id as string, deviceId: added.body.data.device.deviceId as string, credential: enrolled.body.data.credential as string };
}

beforeAll(async () => {
  // Sweeps are run by the tests themselves, with the test clock.
  server = await startServer({ jobs: false });
  clinicId = await createClinic(server.db, 'Augenklinik Geräte');
  const admin = await createUser(server.db, { clinicId, role: 'clinic_it_admins' });
  adminToken = await sessionFor(server.db, admin.id, { clock: server.clock, days: 365 });
  const physician = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
  physicianToken = await sessionFor(server.db, physician.id, { clock: server.clock, days: 365 });
  const clinicB = await createClinic(server.db, 'Augenklinik B');
  const adminB = await createUser(server.db, { clinicId: clinicB, role: 'clinic_it_admins' });
  adminBToken = await sessionFor(server.db, adminB.id, { clock: server.clock, days: 365 });
});
afterAll(() => server.close());

describe('adding a device', () => {
  it('answers the device and a one-time code valid for 15 minutes, shown once (only its hash is kept)', async () => {
    const answer = await addDevice(adminToken, 'NAV-533-09001');
    expect(answer.status).toBe(201);
    const { device, enrolment } = answer.body.data;
    expect(device).toMatchObject({ deviceId: 'NAV-533-09001', syncAppStatus: 'CONNECTION_FAILED', online: false, enrolment: 'code_issued', lastSeenAt: null });
    expect(enrolment.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(Date.parse(enrolment.expiresAt) - server.clock.now().getTime()).toBe(15 * 60_000);
    expect(device.enrolmentCodeExpiresAt).toBe(enrolment.expiresAt);
    const row = await server.db.selectFrom('devices').selectAll().where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(enrolment.code.replace('-', ''));
    expect((await listed()).map((d) => d.deviceId)).toContain('NAV-533-09001');
    const audited = await server.db.selectFrom('audit_log').select(['action', 'actor_role']).where('target_id', '=', device.id).execute();
    expect(audited).toEqual([{ action: 'device.added', actor_role: 'clinic_it_admins' }]);
  });

  it('refuses a serial the clinic has already, at the field, in the caller’s language', async () => {
    await addDevice(adminToken, 'NAV-533-09002');
    const again = await server.call<Body>('POST', '/clinic/devices', {
      token: adminToken,
      lang: 'de',
      json: { deviceId: 'NAV-533-09002', opticalHeadId: 'OH-2', camera: 'CCD' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'device.duplicate', errors: { deviceId: ['Die Klinik hat bereits ein Gerät mit dieser ID.'] } });
    // Another clinic may have a device of the same serial.
    expect((await addDevice(adminBToken, 'NAV-533-09002')).status).toBe(201);
  });

  it('refuses a serial with characters a maker would not print, and only IT admins may add', async () => {
    const bad = await server.call<Body>('POST', '/clinic/devices', { token: adminToken, json: { deviceId: 'NAV 1/2', opticalHeadId: 'OH', camera: 'C' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['deviceId']);
    expect((await addDevice(physicianToken)).status).toBe(403);
  });
});

describe('enrolment', () => {
  it('exchanges the code once for a credential; the code is refused afterwards', async () => {
    const added = await addDevice();
    const code: string = added.body.data.enrolment.code;
    // Typed as a person would read it: lower case, with spaces.
    const first = await enrol(` ${code.toLowerCase().replace('-', ' ')} `);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ id: added.body.data.device.id, deviceId: added.body.data.device.deviceId, heartbeatSeconds: 10, offlineAfterSeconds: 30 });
    expect(first.body.data.credential).toMatch(/^mpd_[A-Za-z0-9_-]{43}$/);
    const again = await enrol(code);
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ code: 'device.enrolment_invalid' });
    const [device] = await listed(adminToken, added.body.data.device.deviceId);
    expect(device).toMatchObject({ enrolment: 'enrolled', syncAppVersion: '1.0.0', online: true, syncAppStatus: 'RUNNING' });
    const row = await server.db.selectFrom('devices').select(['credential_hash']).where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(row.credential_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.credential_hash).not.toContain(first.body.data.credential);
  });

  it('refuses an expired code', async () => {
    const added = await addDevice();
    server.clock.advance(15 * 60_000 + 1000);
    const late = await enrol(added.body.data.enrolment.code);
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({ code: 'device.enrolment_invalid' });
  });

  it('a new code replaces the open one; the credential in use works until the new code is exchanged', async () => {
    const device = await enrolledDevice();
    const first = await server.call<Body>('POST', `/clinic/devices/${device.id}/enrolment-code`, { token: adminToken });
    const second = await server.call<Body>('POST', `/clinic/devices/${device.id}/enrolment-code`, { token: adminToken });
    expect(second.status).toBe(200);
    expect(second.body.data.device.enrolment).toBe('code_issued');
    expect((await enrol(first.body.data.enrolment.code)).status).toBe(401);
    expect((await heartbeat(device.credential)).status).toBe(200);
    const renewed = await enrol(second.body.data.enrolment.code);
    expect(renewed.status).toBe(200);
    expect((await heartbeat(device.credential)).status).toBe(401);
    expect((await heartbeat(renewed.body.data.credential)).status).toBe(200);
  });

  it('holds back an address that keeps guessing codes (429 with Retry-After)', async () => {
    const guesser = { 'X-Forwarded-For': '203.0.113.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await enrol('ABCDE-FGH12', guesser)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    const locked = await enrol('ABCDE-FGH12', guesser);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await enrol('ABCDE-FGH12', { 'X-Forwarded-For': '203.0.113.78' })).status).toBe(401);
  });
});

describe('heartbeats, Online and Offline', () => {
  it('a heartbeat makes the device Online with “last seen” now; silence past 30 s makes it Offline, live on the admin’s screen', async () => {
    const device = await enrolledDevice();
    const client = realtimeClient(server, { token: adminToken });
    try {
      const channel = await subscribed(client, channelName('clinic', clinicId));
      server.clock.advance(20_000);
      const beat = await heartbeat(device.credential, '1.1.0');
      expect(beat.status).toBe(200);
      expect(beat.body.data).toMatchObject({ id: device.id, syncAppStatus: 'RUNNING', lastSeenAt: server.clock.now().toISOString() });
      expect((await listed(adminToken, device.deviceId))[0]).toMatchObject({ online: true, lastSeenAt: server.clock.now().toISOString(), syncAppVersion: '1.1.0' });

      // 29 s of silence: still Online.
      server.clock.advance(29_000);
      await markSilentDevicesOffline(server.ctx);
      expect((await listed(adminToken, device.deviceId))[0].online).toBe(true);

      const wentOffline = changeOf(channel, device.id);
      server.clock.advance(2_000);
      await markSilentDevicesOffline(server.ctx);
      expect((await wentOffline).deviceIds).toContain(device.id);
      expect((await listed(adminToken, device.deviceId))[0]).toMatchObject({ online: false, syncAppStatus: 'CONNECTION_FAILED' });

      const cameBack = changeOf(channel, device.id);
      expect((await heartbeat(device.credential)).status).toBe(200);
      expect(await cameBack).toEqual({ deviceIds: [device.id] });
      expect((await listed(adminToken, device.deviceId))[0].online).toBe(true);
      const audited = await server.db.selectFrom('audit_log').select('action').where('target_id', '=', device.id).orderBy('id').execute();
      expect(audited.map((row) => row.action)).toEqual(['device.added', 'device.enrolled', 'device.offline', 'device.online']);
    } finally {
      client.disconnect();
    }
  });

  it('refuses a missing, unknown or malformed credential with 401 and nothing else', async () => {
    for (const credential of [null, `mpd_${'A'.repeat(43)}`, 'mpd_short-but-long-enough-token']) {
      const answer = await heartbeat(credential);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        status: 'Error',
        code: 'device.unauthenticated',
        message: 'This device is not enrolled, or its credential was revoked. Enrol it again with a new code.',
      });
    }
  });

  it('a user’s token opens no device operation, and a device’s credential no user operation (403 by role)', async () => {
    const device = await enrolledDevice();
    expect((await heartbeat(adminToken)).status).toBe(403);
    expect((await server.call('GET', '/clinic/devices', { token: device.credential })).status).toBe(403);
    expect((await server.call('GET', '/user/profile', { token: device.credential })).status).toBe(403);
    // Revoked, it is nobody: 401.
    await server.call('DELETE', `/clinic/devices/${device.id}/credential`, { token: adminToken });
    expect((await server.call('GET', '/user/profile', { token: device.credential })).status).toBe(401);
  });

  it('limits a device to 120 calls a minute (429 with Retry-After), counted per device', async () => {
    const busy = await enrolledDevice();
    const other = await enrolledDevice();
    server.clock.advance(61_000);
    const statuses: number[] = [];
    for (let i = 0; i < 121; i += 1) statuses.push((await heartbeat(busy.credential)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(120);
    const refused = await heartbeat(busy.credential);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'device.rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await heartbeat(other.credential)).status).toBe(200);
    server.clock.advance(60_000);
    expect((await heartbeat(busy.credential)).status).toBe(200);
  });
});

describe('revoking', () => {
  it('the credential is refused at once, the device is Offline, the revocation audited; a new code enrols it again', async () => {
    const device = await enrolledDevice();
    const revoked = await server.call<Body>('DELETE', `/clinic/devices/${device.id}/credential`, { token: adminToken, lang: 'de' });
    expect(revoked.status).toBe(200);
    expect(revoked.body.message).toBe('Der Zugangsschlüssel des Geräts wurde widerrufen.');
    expect(revoked.body.data).toMatchObject({ enrolment: 'revoked', online: false, enrolledAt: null });
    expect((await heartbeat(device.credential)).status).toBe(401);
    const audit = await server.db.selectFrom('audit_log').select(['action', 'actor_role']).where('target_id', '=', device.id).where('action', '=', 'device.credential_revoked').execute();
    expect(audit).toEqual([{ action: 'device.credential_revoked', actor_role: 'clinic_it_admins' }]);

    const code = await server.call<Body>('POST', `/clinic/devices/${device.id}/enrolment-code`, { token: adminToken });
    const again = await enrol(code.body.data.enrolment.code);
    expect(again.status).toBe(200);
    expect((await heartbeat(again.body.data.credential)).status).toBe(200);
  });
});

describe('clinics apart', () => {
  it('another clinic’s IT admin neither lists, codes nor revokes the device (404), and its devices stay its own', async () => {
    const device = await enrolledDevice();
    expect((await listed(adminBToken)).map((d) => d.id)).not.toContain(device.id);
    expect((await server.call('POST', `/clinic/devices/${device.id}/enrolment-code`, { token: adminBToken })).status).toBe(404);
    expect((await server.call('DELETE', `/clinic/devices/${device.id}/credential`, { token: adminBToken })).status).toBe(404);
    expect((await heartbeat(device.credential)).status).toBe(200);
  });
});

describe('exams from the device', () => {
  it('are taken as a person’s upload would be: the file’s patient created, then matched; the session attributed to the device', async () => {
    const device = await enrolledDevice();
    const first = await smallExam({ seed: 2901, deviceSideId: 'NPT-2901', name: 'Ilse', secondName: 'Gerätlich', birthday: '1950-03-04', gender: 'female' });
    const answer = await uploadFrom(device.credential, first.bytes);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.data).toMatchObject({ patientCreated: true });
    expect(answer.body.data.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(answer.body)).not.toContain('Gerätlich');
    const row = await server.db.selectFrom('treatments').selectAll().where('id', '=', answer.body.data.treatmentId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ uploaded_by_device_id: device.id, created_by: null, clinic_id: clinicId, patient_id: answer.body.data.patientId });

    // The same patient's next exam finds the patient.
    const second = await smallExam({ seed: 2902, deviceSideId: 'NPT-2901', name: 'Ilse', secondName: 'Gerätlich', birthday: '1950-03-04', gender: 'female' });
    const next = await uploadFrom(device.credential, second.bytes);
    expect(next.status).toBe(201);
    expect(next.body.data).toMatchObject({ patientId: answer.body.data.patientId, patientCreated: false });
    const patient = await server.call<Body>('GET', `/patients/${answer.body.data.patientId}`, { token: physicianToken });
    expect(patient.body.data).toMatchObject({ secondName: 'Gerätlich', treatmentsCount: 2 });

    const audited = await server.db.selectFrom('audit_log').select(['action', 'actor_role', 'actor_id']).where('target_id', '=', answer.body.data.treatmentId).execute();
    expect(audited).toEqual([{ action: 'treatment.uploaded', actor_role: 'device', actor_id: null }]);
  });

  it('the same file again makes no second session: 409 naming the session it made', async () => {
    const device = await enrolledDevice();
    const exam = await smallExam({ seed: 2903 });
    const first = await uploadFrom(device.credential, exam.bytes);
    expect(first.status).toBe(201);
    const again = await uploadFrom(device.credential, exam.bytes);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'treatment.duplicate_upload', treatment: { id: first.body.data.treatmentId } });
    const sessions = await server.db.selectFrom('treatments').select('id').where('file_sha256', '=', first.body.data.sha256).execute();
    expect(sessions).toHaveLength(1);
  });

  it('refuses what a person’s upload refuses (not an NPT file: 422) and a revoked device (401)', async () => {
    const device = await enrolledDevice();
    const junk = await uploadFrom(device.credential, new TextEncoder().encode('not a zip at all'));
    expect(junk.status).toBe(422);
    await server.call('DELETE', `/clinic/devices/${device.id}/credential`, { token: adminToken });
    const exam = await smallExam({ seed: 2904 });
    expect((await uploadFrom(device.credential, exam.bytes)).status).toBe(401);
    expect(await server.db.selectFrom('treatments').select('id').where('uploaded_by_device_id', '=', device.id).execute()).toEqual([]);
  });

  it('count in billing for the device that uploaded them, whatever device the file names', async () => {
    const device = await enrolledDevice();
    const exam = await smallExam({ seed: 2905, deviceId: 'FILE-NAMES-0001' });
    expect((await uploadFrom(device.credential, exam.bytes)).status).toBe(201);
    const month = server.clock.now().toISOString().slice(0, 7);
    const usage = await server.call<Body>('GET', `/clinic/billing?from=${month}&to=${month}`, { token: adminToken });
    expect(usage.status).toBe(200);
    const rows: Body[] = usage.body.data.rows;
    expect(rows.find((row) => row.deviceId === device.deviceId)).toMatchObject({ examsUploaded: 1 });
    expect(rows.find((row) => row.deviceId === 'FILE-NAMES-0001')).toBeUndefined();
  });
});
