// The reference sync app (scripts/device-sync/) against a real server (issue 29): it enrols with the code,
// reports itself, uploads each exam the laser exports into the watched folder once, records a file the server
// refuses without sending it again, and rides out the server's restart.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceApi } from '../../scripts/device-sync/client';
import { TransferLedger } from '../../scripts/device-sync/laser-outbox';
import { UploadLedger } from '../../scripts/device-sync/outbox-ledger';
import { SAMPLE_DEVICE } from '../../server/seed/sample-exam';
import { SyncApp, type SyncEvent } from '../../scripts/device-sync/sync-app';
import { smallExam } from './exam-files';
import { createClinic, createUser, PASSWORD, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { planToSignOff } from './planning';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let server: TestServer;
let adminToken: string;
let clinicId: string;
const folders: string[] = [];
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const folder = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
};

/** Writes a file as the laser would, dated back so that the sync app takes it as complete. */
function export_(dir: string, name: string, bytes: Uint8Array) {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const past = new Date(Date.now() - 10_000);
  utimesSync(path, past, past);
}

async function until(condition: () => boolean | Promise<boolean>, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  // Heartbeats every second, so that the app looks at its folder often.
  server = await startServer({ env: { DEVICE_HEARTBEAT_SECONDS: '1', DEVICE_OFFLINE_AFTER_SECONDS: '5' } });
  clinicId = await createClinic(server.db, 'Augenklinik Sync');
  const admin = await createUser(server.db, { clinicId, role: 'clinic_it_admins' });
  adminToken = await sessionFor(server.db, admin.id, { clock: server.clock, days: 365 });
});
afterAll(async () => {
  await server.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('the reference sync app', () => {
  it('enrols, uploads each exported exam once, records a refused file, and rides out a server restart', async () => {
    const added = await server.call<Body>('POST', '/clinic/devices', { token: adminToken, json: { deviceId: 'NAV-SYNC-0001', opticalHeadId: 'OH', camera: 'CCD' } });
    const api = new DeviceApi({ server: server.url });
    const enrolled = await api.enrol(added.body.data.enrolment.code, '1.0.0');
    const [state, outbox] = [folder('macula-sync-state-'), folder('macula-sync-watch-')];
    const ledger = await UploadLedger.open(state);
    const events: SyncEvent[] = [];
    const app = new SyncApp(api.withCredential(enrolled.data.credential), { version: '1.0.0', log: (event) => events.push(event), watch: { dir: outbox, ledger } });
    const running = app.run();
    try {
      const first = await smallExam({ seed: 2911 });
      const second = await smallExam({ seed: 2912 });
      export_(outbox, 'exam-1.npt', first.bytes);
      export_(outbox, 'exam-2.npt', second.bytes);
      export_(outbox, 'broken.npt', new TextEncoder().encode('not an exam'));
      // Not an exam export: left alone.
      export_(outbox, 'notes.txt', new TextEncoder().encode('hello'));
      await until(() => events.filter((event) => event.kind === 'uploaded' || event.kind === 'upload-refused').length === 3);
      expect(events.find((event) => event.kind === 'upload-refused')).toMatchObject({ file: 'broken.npt' });

      // The server goes away and comes back on the same address: the app waits and goes on.
      await server.restart({ samePort: true });
      const third = await smallExam({ seed: 2913 });
      export_(outbox, 'exam-3.npt', third.bytes);
      await until(() => events.some((event) => event.kind === 'uploaded' && event.file === 'exam-3.npt'));
    } finally {
      app.stop();
    }
    expect(await running).toBe('stopped');

    const sessions = await server.db.selectFrom('treatments').select(['id', 'file_sha256']).where('uploaded_by_device_id', '=', enrolled.data.id).execute();
    expect(sessions).toHaveLength(3);
    // A second app on the same state folder sends nothing again.
    const again = new SyncApp(api.withCredential(enrolled.data.credential), { version: '1.0.0', log: () => {}, watch: { dir: outbox, ledger: await UploadLedger.open(state) } });
    const secondRun = again.run();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    again.stop();
    await secondRun;
    expect(await server.db.selectFrom('treatments').select('id').where('uploaded_by_device_id', '=', enrolled.data.id).execute()).toHaveLength(3);
    const device = await server.db.selectFrom('devices').select(['sync_app_status', 'sync_app_version']).where('id', '=', enrolled.data.id).executeTakeFirstOrThrow();
    expect(device).toEqual({ sync_app_status: 'RUNNING', sync_app_version: '1.0.0' });
  });

  it('from exam to treatment: the laser’s exam uploaded, the signed plan fetched into its folder, confirmed and reported treated', async () => {
    const laser = await server.db.selectFrom('devices').select('id').where('clinic_id', '=', clinicId).where('device_id', '=', SAMPLE_DEVICE.deviceId).executeTakeFirstOrThrow();
    const code = await server.call<Body>('POST', `/clinic/devices/${laser.id}/enrolment-code`, { token: adminToken });
    const api = new DeviceApi({ server: server.url });
    const enrolled = await api.enrol(code.body.data.enrolment.code, '1.0.0');
    const [state, exports, imports] = [folder('macula-sync-state-'), folder('macula-sync-watch-'), folder('macula-sync-laser-')];
    const events: SyncEvent[] = [];
    const app = new SyncApp(api.withCredential(enrolled.data.credential), {
      version: '1.0.0',
      log: (event) => events.push(event),
      watch: { dir: exports, ledger: await UploadLedger.open(state) },
      outbox: { dir: imports, ledger: await TransferLedger.open(state), simulateTreatment: true },
    });
    const running = app.run();
    try {
      export_(exports, 'today.npt', (await smallExam({ seed: 2921, deviceSideId: 'LOOP-2921' })).bytes);
      await until(() => events.some((event) => event.kind === 'uploaded'));
      const uploaded = events.find((event) => event.kind === 'uploaded') as Extract<SyncEvent, { kind: 'uploaded' }>;
      const id = uploaded.treatmentId;
      await server.jobsIdle();

      const physician = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
      const token = await sessionFor(server.db, physician.id, { days: 365 });
      const plan = await planToSignOff(server, id, token);
      const signed = await server.call<Body>('POST', `/treatments/${id}/confirm`, { token, json: { revision: plan.revision, password: PASSWORD, confirm: true } });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      await server.jobsIdle();

      await until(() => events.some((event) => event.kind === 'reported'), 30_000);
      const received = events.find((event) => event.kind === 'received') as Extract<SyncEvent, { kind: 'received' }>;
      const packed = (await server.call<Body>('GET', `/treatments/${id}`, { token })).body.data;
      expect(sha256(readFileSync(join(imports, received.file)))).toBe(packed.plan.parameterSet.sha256);
      const transfer = await server.db.selectFrom('parameter_set_transfers').selectAll().where('treatment_id', '=', id).executeTakeFirstOrThrow();
      expect(transfer.status).toBe('treated');
      expect(transfer.delivery).toHaveLength(packed.plan.spots.filter((spot: Body) => spot.enabled).length);
    } finally {
      app.stop();
    }
    expect(await running).toBe('stopped');
  });
});

