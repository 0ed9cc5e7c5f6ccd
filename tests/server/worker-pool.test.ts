// The pool of worker threads (server/workers/pool.ts, issue 28): its size from the environment, tasks whose bytes
// move between the threads instead of being copied, and the queue limit: with the thread busy and the queue
// full, an upload is refused with 503 server.busy in the contract's envelope, and nothing of it is kept.
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { HttpError } from '../../server/http/errors';
import { runTask } from '../../server/workers/pool';
import { Handover } from '../../server/workers/transfer';
import { smallExam } from './exam-files';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

let server: TestServer;
let token: string;

// One thread and one waiting task: the pool this file's server holds (the process's pool, made by buildApp).
beforeAll(async () => {
  server = await startServer({ jobs: false, env: { WORKER_THREADS: '1', WORKER_QUEUE_LIMIT: '1' } });
  const clinicId = await createClinic(server.db);
  token = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_nurses' })).id);
});
afterAll(() => server?.close());

describe('the pool’s size', () => {
  it('is one thread fewer than the machine’s cores, at least one, unless WORKER_THREADS says', () => {
    expect(loadConfig({})).toMatchObject({ workerThreads: Math.max(1, availableParallelism() - 1), workerQueueLimit: 32 });
    expect(loadConfig({ WORKER_THREADS: '3', WORKER_QUEUE_LIMIT: '5' })).toMatchObject({ workerThreads: 3, workerQueueLimit: 5 });
  });

  it('refuses a wrong value, naming the variable', () => {
    for (const env of [{ WORKER_THREADS: '0' }, { WORKER_THREADS: 'two' }, { WORKER_QUEUE_LIMIT: '0' }, { WORKER_THREADS: '1.5' }]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(Object.keys(env)[0]);
    }
  });
});

describe('a task', () => {
  it('moves its bytes to the thread and back', async () => {
    const exam = await smallExam({ seed: 81 });
    const handover = new Handover();
    const sent = handover.move(new Uint8Array(exam.bytes));
    const analysis = await runTask('processExam', { exam: sent }, handover);
    // Moved, not copied: this side's buffer is gone.
    expect(sent.byteLength).toBe(0);
    if (!analysis.ok) throw new Error(analysis.code);
    expect(analysis.images).toHaveLength(1);
    const [image] = analysis.images;
    expect(image.display).toBeInstanceOf(Uint8Array);
    expect([...image.display.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect({ width: image.width, height: image.height }).toEqual({ width: 640, height: 480 });
    expect(analysis.plan.exclusionZones?.faz.kind).toBe('FAZ');
  });

  it('copies a view that does not own its whole buffer, and leaves the rest of that buffer alone', () => {
    const whole = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const handover = new Handover();
    const part = handover.move(whole.subarray(2, 4));
    expect([...part]).toEqual([3, 4]);
    expect(part.buffer).not.toBe(whole.buffer);
    expect(handover.list).toEqual([part.buffer]);
  });

  it('answers a bad file as a refusal with its message key, not a throw', async () => {
    const analysis = await runTask('processExam', { exam: new Uint8Array([1, 2, 3]) });
    expect(analysis).toEqual({ ok: false, code: 'npt.not_a_zip', params: {} });
  });
});

describe('a full queue', () => {
  it('refuses a task, and an upload with 503 server.busy, while the thread is busy and a task waits', async () => {
    const exam = (await smallExam({ seed: 91 })).bytes;
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array((await smallExam({ seed: 93 })).bytes)]), 'exam.npt');
    // Two analyses at all times: one on the only thread, one in the queue's one place. Each filler hands in its
    // next task as its last one is answered, in the same turn of the event loop in which the waiting task took
    // the thread, so no request of the server ever finds the place free.
    let filling = true;
    const analyses: boolean[] = [];
    const fill = async () => {
      while (filling) analyses.push((await runTask('processExam', { exam })).ok);
    };
    const fillers = [fill(), fill()];

    const third = runTask('readExamManifest', { bytes: new Uint8Array(8) });
    await expect(third).rejects.toBeInstanceOf(HttpError);
    await expect(third).rejects.toMatchObject({ statusCode: 503, code: 'server.busy' });
    const refused = await server.call<Body>('POST', '/treatments', { token, form });
    expect(refused.status, JSON.stringify(refused.body)).toBe(503);
    expect(refused.body).toMatchObject({ status: 'Error', code: 'server.busy' });
    expect(refused.body.message).toMatch(/busy/);
    expect(refused.headers.get('retry-after')).toBe('10');

    // The work under way finishes; nothing of the refused upload was kept.
    filling = false;
    await Promise.all(fillers);
    expect(analyses.length).toBeGreaterThanOrEqual(2);
    expect(analyses.every(Boolean)).toBe(true);
    expect(await server.db.selectFrom('treatments').select('id').execute()).toEqual([]);

    // With the queue empty again, the same upload is accepted.
    const accepted = await server.call<Body>('POST', '/treatments', { token, form });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
  });
});
