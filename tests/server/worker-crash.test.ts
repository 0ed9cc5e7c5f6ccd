// A worker thread that dies in the middle of a job (issue 28): the thread processing an exam exits (the fault
// hook MACULA_FAULT_WORKER_EXIT makes the first `processExam` task of this process call process.exit in its
// thread). That job's attempt fails, the server keeps answering, the durable queue retries the job on a new
// thread, and the session is processed exactly once: one job done on its second attempt, one set of images, one
// proposal in the plan's trail, one notification to the uploader.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallExam } from './exam-files';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

let server: TestServer;
let token: string;
let clinicId: string;

beforeAll(async () => {
  process.env.MACULA_FAULT_WORKER_EXIT = 'processExam';
  server = await startServer();
  clinicId = await createClinic(server.db);
  token = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_physicians' })).id);
});
afterAll(async () => {
  delete process.env.MACULA_FAULT_WORKER_EXIT;
  await server?.close();
});

describe('a worker thread that dies in the middle of processing', () => {
  it('fails that attempt only: the server answers, the job is retried and the session processed once', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array((await smallExam({ seed: 71 })).bytes)]), 'exam.npt');
    const created = await server.call<Body>('POST', '/treatments', { token, form });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id: string = created.body.data.treatment.id;
    const job = () => server.db.selectFrom('jobs').select(['state', 'attempts', 'last_error']).where('subject_id', '=', id).execute();

    // First attempt: its thread died; the job waits for its retry (due on the application's clock).
    await server.jobsIdle();
    expect(await job()).toEqual([{ state: 'queued', attempts: 1, last_error: 'worker exited with code: 1' }]);

    // The server kept answering, and the session still shows as processing.
    const meanwhile = await server.call<Body>('GET', `/treatments/${id}`, { token });
    expect(meanwhile.status).toBe(200);
    expect(meanwhile.body.data.planStatus).toBe('processing');
    expect((await server.call<Body>('GET', '/patients', { token })).status).toBe(200);

    // The retry runs on a new thread and finishes the job.
    server.clock.advance(10_000);
    await server.jobsIdle();
    const done = (await server.call<Body>('GET', `/treatments/${id}`, { token })).body.data;
    expect(done.planStatus).toBe('planning');
    expect(done.images).toHaveLength(1);
    expect(done.plan.exclusionZones.faz.kind).toBe('FAZ');

    // Exactly once.
    expect(await job()).toEqual([{ state: 'done', attempts: 2, last_error: null }]);
    const proposals = await server.db.selectFrom('plan_changes').select('action').where('treatment_id', '=', id).where('action', '=', 'proposed').execute();
    expect(proposals).toHaveLength(1);
    const notifications = (await server.call<Body>('GET', '/notifications', { token })).body.data;
    expect(notifications.filter((n: Body) => n.event === 'treatment_processed')).toHaveLength(1);
    // The exam file, one display image and one thumbnail: the failed attempt left no file behind.
    const files = readdirSync(join(server.dataDir, 'files', clinicId, 'treatments'), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files).toHaveLength(3);
  });
});
