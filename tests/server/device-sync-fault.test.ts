// The reference sync app (scripts/device-sync/) when its server dies with `kill -9` (issue 29): killed while the
// app uploads an exam, while it fetches a parameter set and while it reports the delivery, each time after the
// server did the work and began to answer, so that the app never hears the whole answer. The app talks to the
// server through a proxy in this file, which kills the server process at that moment, cuts the app's connection,
// and holds the app's next requests until a new server process runs on the same database. After the restarts
// nothing is lost or doubled: one session per exported file, one acknowledgement, one delivery.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DeviceApi } from '../../scripts/device-sync/client';
import { TransferLedger } from '../../scripts/device-sync/laser-outbox';
import { UploadLedger } from '../../scripts/device-sync/outbox-ledger';
import { SyncApp, type SyncEvent } from '../../scripts/device-sync/sync-app';
import { SAMPLE_DEVICE } from '../../server/seed/sample-exam';
import { smallExam } from './exam-files';
import { createClinic, createUser, PASSWORD, sessionFor } from './fixtures';
import { callApi, type CallOptions, startServer, type TestServer } from './helper';
import { planToSignOff } from './planning';
import { spawnServer, stopServer, until, type ServerProcess } from './server-process';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `callApi`

const databaseUrl = process.env.DATABASE_URL || null;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Heartbeats every second, so that the app looks at its folders often. */
const DEVICE_TIMING = { DEVICE_HEARTBEAT_SECONDS: '1', DEVICE_OFFLINE_AFTER_SECONDS: '5' };

/** Writes a file as the laser would, dated back so that the sync app takes it as complete. */
function export_(dir: string, name: string, bytes: Uint8Array) {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const past = new Date(Date.now() - 10_000);
  utimesSync(path, past, past);
}

/** The server's answers as a person's client sees them, straight from a server process (not through the proxy). */
const clientOf = (server: ServerProcess) => ({
  call: <T = Record<string, unknown>>(method: string, path: string, options?: CallOptions) => callApi<T>(server.url, method, path, options),
});

interface Fault {
  /** What the app was doing. */
  name: 'upload' | 'fetch' | 'delivery';
  method: string;
  path: RegExp;
  /** `answer-lost`: the app hears nothing of the answer; `answer-cut`: its status, its headers and half of its first bytes. */
  cut: 'answer-lost' | 'answer-cut';
}

interface FaultyProxy {
  /** The address the sync app is given: it stays while the server processes behind it change. */
  url: string;
  /** Forwards to `server` from now on, the requests held meanwhile first. */
  forwardTo(server: ServerProcess): void;
  /** Resolves with the server process killed once the fault has happened. */
  fired(name: Fault['name']): Promise<ServerProcess>;
  /** The requests forwarded, e.g. `POST /api/device/exams 409`, for a failure's message. */
  log: string[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of one server process at a time. Each fault fires once, on the first request it
 * matches: the request reaches the server, and once the server's answer begins (its work committed) the server
 * is killed with SIGKILL and the app's connection dropped, its answer lost or cut off. Until `forwardTo` names
 * the next server, the app's requests wait, as behind a load balancer while the server restarts.
 */
async function faultyProxy(faults: Fault[]): Promise<FaultyProxy> {
  const armed = [...faults];
  let current: ServerProcess | null = null;
  let waiting: ((server: ServerProcess) => void)[] = [];
  const happened = new Map<string, { promise: Promise<ServerProcess>; resolve: (server: ServerProcess) => void }>();
  const occasion = (name: string) => {
    if (!happened.has(name)) {
      let resolve!: (server: ServerProcess) => void;
      const promise = new Promise<ServerProcess>((done) => (resolve = done));
      happened.set(name, { promise, resolve });
    }
    return happened.get(name)!;
  };
  const backend = () => (current ? Promise.resolve(current) : new Promise<ServerProcess>((resolve) => waiting.push(resolve)));
  const log: string[] = [];

  const proxy = createServer((incoming, outgoing) => {
    void backend().then((server) => {
      // The app gave up while its request waited (its own timeout): it will send again.
      if (incoming.socket.destroyed) return;
      const fault = armed.find((candidate) => candidate.method === incoming.method && candidate.path.test(incoming.url ?? ''));
      if (fault) armed.splice(armed.indexOf(fault), 1);
      let killing = false;
      const drop = () => {
        if (!killing) outgoing.socket?.destroy();
      };
      const kill = async () => {
        killing = true;
        if (current === server) current = null;
        await stopServer(server, 'SIGKILL');
      };
      const upstream = request(`${server.url}${incoming.url}`, { method: incoming.method, headers: incoming.headers, agent: false }, (answer) => {
        answer.on('error', drop);
        const status = answer.statusCode ?? 502;
        log.push(`${incoming.method} ${incoming.url} ${status}${fault ? ` (${fault.name}: killed, ${fault.cut})` : ''}`);
        if (!fault) {
          outgoing.writeHead(status, answer.headers);
          answer.pipe(outgoing);
          return;
        }
        const done = () => {
          outgoing.socket?.destroy();
          occasion(fault.name).resolve(server);
        };
        if (fault.cut === 'answer-lost') {
          void kill().then(done);
          return;
        }
        answer.once('data', (chunk: Buffer) => {
          answer.pause();
          void kill().then(() => {
            outgoing.writeHead(status, answer.headers);
            outgoing.write(chunk.subarray(0, Math.max(1, Math.floor(chunk.length / 2))), done);
          });
        });
      });
      upstream.on('error', drop);
      incoming.pipe(upstream);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    forwardTo(server) {
      current = server;
      const held = waiting;
      waiting = [];
      for (const resume of held) resume(server);
    },
    fired: (name) => occasion(name).promise,
    log,
    async close() {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}

describe('the reference sync app when its server is killed (kill -9)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'macula-sync-fault-'));
  const folders: string[] = [];
  const folder = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    folders.push(dir);
    return dir;
  };
  const children: ServerProcess[] = [];
  let setup: TestServer | null = null;
  let proxy: FaultyProxy | null = null;
  let app: SyncApp | null = null;
  afterAll(async () => {
    app?.stop();
    await proxy?.close();
    for (const child of children) await stopServer(child, 'SIGKILL');
    await setup?.close();
    for (const dir of [dataDir, ...folders]) rmSync(dir, { recursive: true, force: true });
  });

  it('loses and doubles nothing when killed while the app uploads, fetches and reports: one session per file, one acknowledgement, one delivery', async () => {
    // Embedded PGlite belongs to one process at a time: the in-process server steps aside for the children.
    const reopen = async () => {
      if (!setup) setup = await startServer({ dataDir, jobs: false, env: DEVICE_TIMING });
      return setup;
    };
    const stepAside = async () => {
      if (databaseUrl || !setup) return;
      await setup.close();
      setup = null;
    };
    const server = await reopen();
    const clinicId = await createClinic(server.db, 'Augenklinik Fault');
    const admin = await createUser(server.db, { clinicId, role: 'clinic_it_admins' });
    const physician = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const adminToken = await sessionFor(server.db, admin.id, { clock: server.clock, days: 365 });
    const physicianToken = await sessionFor(server.db, physician.id, { days: 365 });
    const laser = await server.db.selectFrom('devices').select('id').where('clinic_id', '=', clinicId).where('device_id', '=', SAMPLE_DEVICE.deviceId).executeTakeFirstOrThrow();
    const code = await server.call<Body>('POST', `/clinic/devices/${laser.id}/enrolment-code`, { token: adminToken });
    expect(code.status).toBe(200);
    const enrolled = await new DeviceApi({ server: server.url }).enrol(code.body.data.enrolment.code, '1.0.0');
    const schemaUrl = databaseUrl ? `${databaseUrl}?options=${encodeURIComponent(`-c search_path=${server.schema}`)}` : null;
    const childEnv: Record<string, string> = { NODE_ENV: 'test', LOG_LEVEL: 'warn', JOB_LEASE_SECONDS: '2', ...DEVICE_TIMING, ...(schemaUrl ? { DATABASE_URL: schemaUrl } : {}) };
    await stepAside();

    const serve = async () => {
      const child = await spawnServer(dataDir, childEnv);
      children.push(child);
      expect(child.child.exitCode, child.output()).toBeNull();
      return child;
    };
    proxy = await faultyProxy([
      { name: 'upload', method: 'POST', path: /^\/api\/device\/exams$/, cut: 'answer-lost' },
      { name: 'fetch', method: 'GET', path: /^\/api\/device\/parameter-sets\/[^/]+\/file$/, cut: 'answer-cut' },
      { name: 'delivery', method: 'POST', path: /^\/api\/device\/parameter-sets\/[^/]+\/delivery$/, cut: 'answer-cut' },
    ]);
    proxy.forwardTo(await serve());

    const [state, exports, imports] = [folder('macula-sync-state-'), folder('macula-sync-watch-'), folder('macula-sync-laser-')];
    const events: SyncEvent[] = [];
    const happened = (kind: SyncEvent['kind']) => events.filter((event) => event.kind === kind);
    const api = new DeviceApi({ server: proxy.url }).withCredential(enrolled.data.credential);
    app = new SyncApp(api, {
      version: '1.0.0',
      log: (event) => events.push(event),
      // The shortest waits of the back-off: the proxy holds the app's requests while the server restarts.
      random: () => 0,
      watch: { dir: exports, ledger: await UploadLedger.open(state) },
      outbox: { dir: imports, ledger: await TransferLedger.open(state), simulateTreatment: true },
    });
    const running = app.run();
    const ended = running.then(
      (end) => `the sync app ended (${end})`,
      (error: unknown) => `the sync app crashed: ${(error as Error).stack ?? String(error)}`,
    );
    /** What `waiting` gives, or a failure at once when the app ends instead (with the requests the proxy saw). */
    const whileRunning = async <T>(waiting: Promise<T>): Promise<T> => {
      const outcome = await Promise.race([waiting.then((value) => ({ value })), ended]);
      if (typeof outcome === 'string') throw new Error(`${outcome}\n${proxy!.log.join('\n')}`);
      return outcome.value;
    };
    const fault = async (name: Fault['name']) => {
      const killed = await whileRunning(proxy!.fired(name));
      expect(killed.child.signalCode).toBe('SIGKILL');
    };
    const event = <K extends SyncEvent['kind']>(kind: K, count = 1) =>
      whileRunning(until(`${count} × ${kind}`, async () => (happened(kind).length >= count ? (happened(kind) as Extract<SyncEvent, { kind: K }>[]) : null)));

    // Uploading: the server makes the session and dies as it answers; the app sends the file again to the next
    // server, which answers with the session made before.
    const first = await smallExam({ seed: 2931, deviceSideId: 'FAULT-2931' });
    const second = await smallExam({ seed: 2932, deviceSideId: 'FAULT-2932' });
    export_(exports, 'exam-1.npt', first.bytes);
    export_(exports, 'exam-2.npt', second.bytes);
    await fault('upload');
    proxy.forwardTo(await serve());
    const uploaded = await event('uploaded', 2);
    expect(uploaded.map(({ file, before }) => ({ file, before }))).toEqual([
      { file: 'exam-1.npt', before: true },
      { file: 'exam-2.npt', before: false },
    ]);
    const id = uploaded[0].treatmentId;

    // Planned and signed off on the second server, which packs the parameter set and queues it for the laser.
    const planner = children.at(-1)!;
    const planStatus = async () => ((await clientOf(planner).call<Body>('GET', `/treatments/${id}`, { token: physicianToken })).body.data.planStatus as string);
    await until('planning', async () => ((await planStatus()) === 'planning' ? true : null));
    const atSignOff = await planToSignOff(clientOf(planner), id, physicianToken);
    const signed = await clientOf(planner).call<Body>('POST', `/treatments/${id}/confirm`, {
      token: physicianToken,
      json: { revision: atSignOff.revision, password: PASSWORD, confirm: true },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);

    // Fetching: the server dies halfway through the file; the app fetches it again from the next server.
    await fault('fetch');
    proxy.forwardTo(await serve());
    // Reporting: the server records the delivery and dies as it answers; the app sends the same report again.
    await fault('delivery');
    const last = await serve();
    proxy.forwardTo(last);
    await event('reported');
    // Two more heartbeats' looks at the folders: nothing is sent again.
    const beats = proxy.log.length;
    await whileRunning(until('two more heartbeats', async () => (proxy!.log.slice(beats).filter((line) => line.startsWith('POST /api/device/heartbeat 200')).length >= 2 ? true : null)));
    app.stop();
    expect(await running).toBe('stopped');
    const seen = await clientOf(last).call<Body>('GET', `/treatments/${id}`, { token: physicianToken });
    const parameterSet = seen.body.data.plan.parameterSet as Body;
    await stopServer(last, 'SIGTERM');

    // What the app did, once each: the uploads (the first one's session was the server's earlier answer), the
    // parameter set received and the delivery reported; nothing refused, nothing withdrawn.
    expect(events.filter((entry) => entry.kind !== 'online' && entry.kind !== 'retrying').map((entry) => entry.kind)).toEqual(['uploaded', 'uploaded', 'received', 'reported']);
    expect(happened('retrying').length).toBeGreaterThanOrEqual(3);
    const received = happened('received')[0] as Extract<SyncEvent, { kind: 'received' }>;
    const reported = happened('reported')[0] as Extract<SyncEvent, { kind: 'reported' }>;
    expect(reported).toMatchObject({ transferId: received.transferId, outcome: 'treated' });

    // The laser's folder: the parameter set, whole, and nothing half-written beside it.
    expect(readdirSync(imports)).toEqual([received.file]);
    expect(sha256(readFileSync(join(imports, received.file)))).toBe(parameterSet.sha256);

    // The app's ledgers in its state folder: each file once with its session, the transfer once, reported.
    expect(JSON.parse(readFileSync(join(state, 'uploads.json'), 'utf8'))).toEqual({
      [sha256(first.bytes)]: { file: 'exam-1.npt', treatmentId: id },
      [sha256(second.bytes)]: { file: 'exam-2.npt', treatmentId: uploaded[1].treatmentId },
    });
    const ledger = JSON.parse(readFileSync(join(state, 'transfers.json'), 'utf8')) as Record<string, Body>;
    expect(Object.keys(ledger)).toEqual([received.transferId]);
    expect(ledger[received.transferId]).toMatchObject({ file: received.file, reported: true, report: { outcome: 'treated' } });

    // What the server kept: one session per file, one transfer, received once and treated once.
    const { db } = await reopen();
    const sessions = await db.selectFrom('treatments').select(['id', 'file_sha256']).where('uploaded_by_device_id', '=', enrolled.data.id).orderBy('created_at').execute();
    expect(sessions).toEqual([
      { id, file_sha256: sha256(first.bytes) },
      { id: uploaded[1].treatmentId, file_sha256: sha256(second.bytes) },
    ]);
    const transfers = await db.selectFrom('parameter_set_transfers').selectAll().where('treatment_id', '=', id).execute();
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ id: received.transferId, status: 'treated', sha256: parameterSet.sha256 });
    // The spots as the app reported them (the server adds each spot's place).
    expect(transfers[0].delivery?.map(({ id: spot, powerMw }) => ({ id: spot, powerMw }))).toEqual(ledger[received.transferId].report.spots);
    const steps = (await db.selectFrom('audit_log').select('action').where('target_id', '=', laser.id).where('action', 'like', 'device.%').execute()).map((row) => row.action);
    expect(steps.filter((action) => action === 'device.parameter_set_received')).toHaveLength(1);
    expect(steps.filter((action) => action === 'device.delivery_treated')).toHaveLength(1);
    // Fetched at least twice: the answer cut off halfway, then whole.
    expect(steps.filter((action) => action === 'device.parameter_set_fetched').length).toBeGreaterThanOrEqual(2);
  }, 180_000); // four server processes start one after the other (one after each kill): 55–70 s on PGlite, whose start after a SIGKILL takes 11–14 s on our 2 cores, about 30 s on PostgreSQL
});
