// Processing as durable jobs: a server killed with SIGKILL in the middle of a job resumes it after a restart,
// and two workers on one database never process a session twice.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/context';
import { openDatabase } from '../../server/db/database';
import { startWorker } from '../../server/jobs/worker';
import { examProcessing } from '../../server/services/exam-processing';
import { smallExam } from './exam-files';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { freePort, until } from './server-process';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

const ROOT = resolve(import.meta.dirname, '..', '..');
const databaseUrl = process.env.DATABASE_URL || null;


/** `npm start`'s server process (without the SPA build) on a data dir, a port and extra settings. */
async function serverProcess(dataDir: string, env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}/api`;
  for (let i = 0; i < 300; i += 1) {
    if (child.exitCode !== null) throw new Error(`server process ended early:\n${output}`);
    const up = await fetch(`${url}/profile`).then(() => true, () => false);
    if (up) return { child, url, output: () => output };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server process did not start:\n${output}`);
}

const exited = (child: ChildProcess) =>
  new Promise<void>((done) => (child.exitCode !== null || child.signalCode !== null ? done() : child.once('exit', () => done())));

async function treatmentOf(url: string, token: string, id: string): Promise<Body> {
  const answer = await fetch(`${url}/treatments/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as Body).data;
}

describe('a server killed during processing', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'macula-fault-'));
  const children: ChildProcess[] = [];
  let setup: TestServer | null = null;
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await setup?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes the job after a restart and reaches planning exactly once', async () => {
    // The session is accepted by a server without a worker, so that it waits in the queue.
    setup = await startServer({ dataDir, jobs: false });
    const clinicId = await createClinic(setup.db);
    const user = await createUser(setup.db, { clinicId, role: 'clinic_physicians' });
    const token = await sessionFor(setup.db, user.id);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array((await smallExam({ seed: 31 })).bytes)]), 'exam.npt');
    const created = await setup.call<Body>('POST', '/treatments', { token, form });
    expect(created.status).toBe(201);
    const id: string = created.body.data.treatment.id;
    const schemaUrl = databaseUrl ? `${databaseUrl}?options=${encodeURIComponent(`-c search_path=${setup.schema}`)}` : null;
    const dbEnv: Record<string, string> = schemaUrl ? { DATABASE_URL: schemaUrl } : {};
    // Embedded PGlite belongs to one process at a time.
    if (!databaseUrl) {
      await setup.close();
      setup = null;
    }

    // First run: the job pauses midway (after detection, before anything is stored) and the process is killed there.
    const first = await serverProcess(dataDir, { ...dbEnv, MACULA_FAULT_JOB_PAUSE_MS: '120000', JOB_LEASE_SECONDS: '2' });
    children.push(first.child);
    await until('processing', async () => ((await treatmentOf(first.url, token, id)).planStatus === 'processing' ? true : null));
    first.child.kill('SIGKILL');
    await exited(first.child);
    expect(first.child.signalCode).toBe('SIGKILL');

    // Second run: the job is claimed again (PGlite: at start; PostgreSQL: when the lease has lapsed).
    const second = await serverProcess(dataDir, { ...dbEnv, JOB_LEASE_SECONDS: '2' });
    children.push(second.child);
    const done = await until('planning', async () => {
      const treatment = await treatmentOf(second.url, token, id);
      return treatment.planStatus === 'planning' ? treatment : null;
    });
    expect(done.images).toHaveLength(1);
    expect(done.plan.exclusionZones.faz.kind).toBe('FAZ');
    const notifications = await fetch(`${second.url}/notifications`, { headers: { Authorization: `Bearer ${token}` } });
    const processed = ((await notifications.json()) as Body).data.filter((n: Body) => n.event === 'treatment_processed');
    expect(processed).toHaveLength(1);
    second.child.kill('SIGTERM');
    await exited(second.child);

    // Exactly once: one job, done on its second attempt; one image row; the exam file plus one display
    // image and one thumbnail on disk.
    const { db } = setup ? { db: setup.db } : await openDatabase({ databaseUrl: null, pgliteDir: join(dataDir, 'db') });
    try {
      const jobs = await db.selectFrom('jobs').select(['state', 'attempts']).where('subject_id', '=', id).execute();
      expect(jobs).toEqual([{ state: 'done', attempts: 2 }]);
      const images = await db.selectFrom('treatment_images').select('id').where('treatment_id', '=', id).execute();
      expect(images).toHaveLength(1);
    } finally {
      if (!setup) await db.destroy();
    }
    const files = readdirSync(join(dataDir, 'files', clinicId, 'treatments'), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files).toHaveLength(3);
  });
});

describe('two workers on one database', () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it('process every session exactly once', async () => {
    server = await startServer({ jobs: false });
    const clinicId = await createClinic(server.db);
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const token = await sessionFor(server.db, user.id);
    const ids: string[] = [];
    for (let seed = 41; seed < 47; seed += 1) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array((await smallExam({ seed })).bytes)]), 'exam.npt');
      const created = await server.call<Body>('POST', '/treatments', { token, form });
      expect(created.status).toBe(201);
      ids.push(created.body.data.treatment.id);
    }
    // On PostgreSQL each worker has a connection pool of its own, as two server processes would.
    const contexts: AppContext[] = [];
    const opened: { destroy(): Promise<void> }[] = [];
    for (let i = 0; i < 2; i += 1) {
      if (databaseUrl) {
        const { db } = await openDatabase({ databaseUrl, pgliteDir: '', schema: server.schema ?? undefined });
        opened.push(db);
        contexts.push({ ...server.ctx, db });
      } else {
        contexts.push(server.ctx);
      }
    }
    const workers = contexts.map((ctx) => startWorker(ctx, { 'treatment.process': examProcessing(ctx) }, { leaseMs: 30_000, pollMs: 50 }));
    try {
      await until('all sessions processed', async () => {
        const rows = await server.db.selectFrom('treatments').select('processing_state').where('id', 'in', ids).execute();
        return rows.every((row) => row.processing_state === 'processed') ? true : null;
      });
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await Promise.all(opened.map((db) => db.destroy()));
    }
    const jobs = await server.db.selectFrom('jobs').select(['state', 'attempts']).where('subject_id', 'in', ids).execute();
    expect(jobs).toEqual(ids.map(() => ({ state: 'done', attempts: 1 })));
    const images = await server.db.selectFrom('treatment_images').select('treatment_id').where('treatment_id', 'in', ids).execute();
    expect(images.map((row) => row.treatment_id).sort()).toEqual([...ids].sort());
    const notifications = await server.call<Body>('GET', '/notifications?perPage=50', { token });
    expect(notifications.body.data.filter((n: Body) => n.event === 'treatment_processed')).toHaveLength(ids.length);
  });
});
