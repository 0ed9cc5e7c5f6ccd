// Packing as a durable job: a server killed with SIGKILL after it wrote the parameter set but before the
// session became `available` packs it again after a restart, and exactly one parameter set is left: one
// file, one `available`, one audit entry, and a download that reads back.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { readParameterSet } from '../../src/domain/npt/read-npt';
import { smallExam } from './exam-files';
import { createClinic, createUser, PASSWORD, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { planToSignOff } from './planning';
import { spawnServer, stopServer, until, type ServerProcess } from './server-process';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

const databaseUrl = process.env.DATABASE_URL || null;

/** `npm start`'s server process on the data dir, in test mode (the fault settings work outside production). */
const serverProcess = (dataDir: string, env: Record<string, string>) => spawnServer(dataDir, { NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env });

const get = async (url: string, token: string, path: string) => {
  const answer = await fetch(`${url}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: answer.status, answer };
};
const stepOf = async (url: string, token: string, id: string) => ((await (await get(url, token, `/treatments/${id}`)).answer.json()) as Body).data.step as string;

describe('a server killed while packing the parameter set', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'macula-pack-fault-'));
  const children: ServerProcess[] = [];
  let setup: TestServer | null = null;
  afterAll(async () => {
    for (const child of children) await stopServer(child, 'SIGKILL');
    await setup?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('packs again after the restart and leaves exactly one parameter set', async () => {
    // Embedded PGlite belongs to one process at a time: the in-process server steps aside for the children.
    const reopen = async () => {
      if (!setup) setup = await startServer({ dataDir, jobs: false });
      return setup;
    };
    const stepAside = async () => {
      if (databaseUrl || !setup) return;
      await setup.close();
      setup = null;
    };
    const server = await reopen();
    const clinicId = await createClinic(server.db);
    const nurse = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const physician = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const nurseToken = await sessionFor(server.db, nurse.id);
    const physicianToken = await sessionFor(server.db, physician.id);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array((await smallExam({ seed: 77 })).bytes)]), 'exam.npt');
    const created = await server.call<Body>('POST', '/treatments', { token: nurseToken, form });
    expect(created.status).toBe(201);
    const { id, patientId } = { id: created.body.data.treatment.id as string, patientId: created.body.data.patient.id as string };
    const schemaUrl = databaseUrl ? `${databaseUrl}?options=${encodeURIComponent(`-c search_path=${server.schema}`)}` : null;
    const dbEnv: Record<string, string> = schemaUrl ? { DATABASE_URL: schemaUrl } : {};

    // Processing in a server process of its own.
    await stepAside();
    const processing = await serverProcess(dataDir, { ...dbEnv, JOB_LEASE_SECONDS: '2' });
    children.push(processing);
    const planStatusOf = async () => ((await (await get(processing.url, nurseToken, `/treatments/${id}`)).answer.json()) as Body).data.planStatus as string;
    await until('planning', async () => ((await planStatusOf()) === 'planning' ? true : null));
    await stopServer(processing, 'SIGTERM');

    // Planned and signed off in process (no worker): the packing job waits in the queue.
    const planner = await reopen();
    const atSignOff = await planToSignOff(planner, id, nurseToken);
    const signed = await planner.call<Body>('POST', `/treatments/${id}/confirm`, {
      token: physicianToken,
      json: { revision: atSignOff.revision, password: PASSWORD, confirm: true },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    await stepAside();

    // First packer: writes the file, then pauses before the session is `available`, and is killed there.
    const folder = join(dataDir, 'files', clinicId, 'treatments', patientId, id);
    const filesIn = () => (existsSync(folder) ? readdirSync(folder) : []);
    const before = filesIn().length;
    const first = await serverProcess(dataDir, { ...dbEnv, MACULA_FAULT_JOB_PAUSE_MS: '120000', JOB_LEASE_SECONDS: '2' });
    children.push(first);
    await until('the parameter set file', async () => (filesIn().length > before ? true : null));
    expect(await stepOf(first.url, physicianToken, id)).toBe('npt_packing');
    await stopServer(first, 'SIGKILL');
    expect(first.child.signalCode).toBe('SIGKILL');

    // Second packer: claims the job again (PGlite: at start; PostgreSQL: when the lease has lapsed).
    const second = await serverProcess(dataDir, { ...dbEnv, JOB_LEASE_SECONDS: '2' });
    children.push(second);
    await until('available', async () => ((await stepOf(second.url, physicianToken, id)) === 'available' ? true : null));
    const download = await get(second.url, physicianToken, `/treatments/${id}/parameter-set`);
    expect(download.status).toBe(200);
    const read = readParameterSet(new Uint8Array(await download.answer.arrayBuffer()));
    expect(read.ok).toBe(true);
    const trail = ((await (await get(second.url, physicianToken, `/treatments/${id}/audit`)).answer.json()) as Body).data;
    expect(trail.filter((entry: Body) => entry.action === 'parameter_set_packed')).toHaveLength(1);
    await stopServer(second, 'SIGTERM');

    // Exactly once: the packing job done on its second attempt, and one more file than before packing.
    expect(filesIn()).toHaveLength(before + 1);
    expect(filesIn().some((name) => name.endsWith('.partial'))).toBe(false);
    const { db } = setup ? { db: (setup as TestServer).db } : await openDatabase({ databaseUrl: null, pgliteDir: join(dataDir, 'db') });
    try {
      const jobs = await db.selectFrom('jobs').select(['kind', 'state', 'attempts']).where('subject_id', '=', id).orderBy('created_at').execute();
      expect(jobs).toEqual([
        { kind: 'treatment.process', state: 'done', attempts: 1 },
        { kind: 'treatment.pack', state: 'done', attempts: 2 },
      ]);
    } finally {
      if (!setup) await db.destroy();
    }
  }, 120_000); // three server processes start one after the other: 42–55 s alone on our 2 cores, more beside other suites
});
