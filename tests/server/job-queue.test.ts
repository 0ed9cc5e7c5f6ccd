// The durable job queue's failure path (server/jobs/queue.ts and worker.ts), on the test clock: a failed attempt
// waits out its back-off in the queue, the last one is given up once, and a lease that lapses is claimed again
// while the claim that lost it can neither renew nor finish. The app's own worker is off (`jobs: false`); each
// test starts a worker of its own, with a test definition or with exam processing on a store that fails.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { AppContext } from '../../server/context';
import type { JobRow } from '../../server/db/tables';
import { claim, enqueue, finish, LeaseLostError, renewLease, retryLater } from '../../server/jobs/queue';
import { type JobDefinition, startWorker } from '../../server/jobs/worker';
import type { OutgoingEvent, Publisher } from '../../server/realtime/publisher';
import { examProcessing } from '../../server/services/exam-processing';
import { StorageUnavailableError } from '../../server/storage';
import { smallExam } from './exam-files';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

const LEASE_MS = 30_000;
// The worker's back-off: 2 s times the attempt that failed (server/jobs/worker.ts).
const BACK_OFF_MS = 2_000;

let server: TestServer;
let clinicId: string;

beforeAll(async () => {
  server = await startServer({ jobs: false });
  clinicId = await createClinic(server.db);
});
afterAll(() => server?.close());
// `claim` takes the oldest ready job of any kind: each test starts from an empty queue.
beforeEach(async () => {
  await server.db.deleteFrom('jobs').execute();
});

const now = () => server.clock.now();
const later = (ms: number) => new Date(now().getTime() + ms);
const jobRow = (id: string) => server.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const newJob = () => enqueue(server.db, { kind: 'treatment.process', clinicId, subjectId: randomUUID(), now: now() });

/** A worker of this test's own, stopped when the test ends. */
function worker(ctx: AppContext, definition: JobDefinition) {
  const started = startWorker(ctx, { 'treatment.process': definition }, { leaseMs: LEASE_MS, pollMs: 50 });
  onTestFinished(() => started.stop());
  return started;
}

describe('the queue', () => {
  it('keeps a job put back after a failure until its back-off has passed, then hands it out for the next attempt', async () => {
    const id = await newJob();
    const first = await claim(server.db, 'worker-a', LEASE_MS, now());
    expect(first).toMatchObject({ id, state: 'running', attempts: 1, locked_by: 'worker-a', locked_until: later(LEASE_MS) });
    expect(await claim(server.db, 'worker-b', LEASE_MS, now())).toBeNull();

    await retryLater(server.db, first!, 'worker-a', 'the store did not answer', 5_000, now());
    expect(await jobRow(id)).toMatchObject({ state: 'queued', attempts: 1, run_after: later(5_000), locked_by: null, locked_until: null, last_error: 'the store did not answer' });
    expect(await claim(server.db, 'worker-b', LEASE_MS, later(4_999))).toBeNull();
    const second = await claim(server.db, 'worker-b', LEASE_MS, later(5_000));
    expect(second).toMatchObject({ id, state: 'running', attempts: 2, locked_by: 'worker-b' });

    // The first claim is over: putting the job back again changes nothing.
    await retryLater(server.db, first!, 'worker-a', 'late', 0, now());
    expect(await jobRow(id)).toMatchObject({ state: 'running', attempts: 2, locked_by: 'worker-b', last_error: 'the store did not answer' });
  });

  it('hands a job whose lease lapsed to another worker; the claim that lost it can neither renew nor finish', async () => {
    const id = await newJob();
    const lost = (await claim(server.db, 'worker-a', LEASE_MS, now()))!;
    expect(lost.attempts).toBe(1);
    // Renewed halfway: the lease now runs until 1.5 leases from the start.
    expect(await renewLease(server.db, lost, 'worker-a', LEASE_MS, later(LEASE_MS / 2))).toBe(true);
    expect(await claim(server.db, 'worker-b', LEASE_MS, later(LEASE_MS))).toBeNull();
    expect(await claim(server.db, 'worker-b', LEASE_MS, later(1.5 * LEASE_MS - 1))).toBeNull();

    // Worker A stopped renewing (its process died): once the lease has run out, B takes the job.
    const taken = (await claim(server.db, 'worker-b', LEASE_MS, later(1.5 * LEASE_MS + 1)))!;
    expect(taken).toMatchObject({ id, state: 'running', attempts: 2, locked_by: 'worker-b' });
    expect(await renewLease(server.db, lost, 'worker-a', LEASE_MS, later(1.5 * LEASE_MS + 2))).toBe(false);
    let ranForA = false;
    await expect(
      finish(server.db, lost, 'worker-a', 'done', now(), async () => {
        ranForA = true;
      }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(ranForA).toBe(false);
    expect(await jobRow(id)).toMatchObject({ state: 'running', locked_by: 'worker-b', finished_at: null });

    const finishedAt = later(1.5 * LEASE_MS + 10);
    expect(await finish(server.db, taken, 'worker-b', 'done', finishedAt, async () => 'results')).toBe('results');
    expect(await jobRow(id)).toMatchObject({ state: 'done', attempts: 2, finished_at: finishedAt, locked_by: null, locked_until: null });
    expect(await claim(server.db, 'worker-c', LEASE_MS, later(10 * LEASE_MS))).toBeNull();
  });
});

describe('the worker', () => {
  it('answers idle() only after a look at the queue begun after the call, not with a poll that looked before', async () => {
    // The poll reads the clock, then asks the database; the test moves the clock and asks for idle() in
    // between, as a test does when the poll timer fires just before it. That poll found the job not yet due.
    let onNextRead: (() => void) | null = null;
    const clock = {
      now: () => {
        const read = server.clock.now();
        const hook = onNextRead;
        onNextRead = null;
        hook?.();
        return read;
      },
    };
    const runs: number[] = [];
    const polling = worker({ ...server.ctx, clock }, {
      async run(job, claimed) {
        runs.push(job.attempts);
        await claimed.finish('done', async () => undefined);
      },
      async giveUp() {
        throw new Error('not expected: the job succeeds');
      },
    });
    await polling.idle();
    const id = await enqueue(server.db, { kind: 'treatment.process', clinicId, subjectId: randomUUID(), now: later(BACK_OFF_MS) });

    let answered: Promise<void> | null = null;
    onNextRead = () => {
      server.clock.advance(BACK_OFF_MS);
      queueMicrotask(() => (answered = polling.idle()));
    };
    polling.wake();
    await expect.poll(() => answered).not.toBeNull();
    await answered;
    expect(runs).toEqual([1]);
    expect(await jobRow(id)).toMatchObject({ state: 'done' });
  });

  it('retries a job whose run throws after a growing back-off, and gives it up once after its last attempt', async () => {
    const runs: number[] = [];
    const givenUp: { attempts: number; error: unknown }[] = [];
    const failing = worker(server.ctx, {
      async run(job) {
        runs.push(job.attempts);
        throw new Error(`scanner busy (attempt ${job.attempts})`);
      },
      async giveUp(job, claimed, error) {
        givenUp.push({ attempts: job.attempts, error });
        await claimed.finish('failed', async () => undefined, 'gave up');
      },
    });
    const id = await newJob();
    expect((await jobRow(id)).max_attempts).toBe(3);

    failing.wake();
    await failing.idle();
    expect(runs).toEqual([1]);
    const afterFirst = now();
    expect(await jobRow(id)).toMatchObject({ state: 'queued', attempts: 1, last_error: 'scanner busy (attempt 1)', run_after: new Date(afterFirst.getTime() + BACK_OFF_MS) });

    // Not before its back-off.
    server.clock.advance(BACK_OFF_MS - 1);
    await failing.idle();
    expect(runs).toEqual([1]);
    server.clock.advance(1);
    await failing.idle();
    expect(runs).toEqual([1, 2]);
    // The second back-off is twice the first.
    expect(await jobRow(id)).toMatchObject({ state: 'queued', attempts: 2, last_error: 'scanner busy (attempt 2)', run_after: later(2 * BACK_OFF_MS) });
    server.clock.advance(2 * BACK_OFF_MS);
    await failing.idle();

    // The third attempt was the last: given up once, with the error of that attempt, and never tried again.
    expect(runs).toEqual([1, 2, 3]);
    expect(givenUp).toHaveLength(1);
    expect(givenUp[0].attempts).toBe(3);
    expect((givenUp[0].error as Error).message).toBe('scanner busy (attempt 3)');
    expect(await jobRow(id)).toMatchObject({ state: 'failed', attempts: 3, finished_at: now(), locked_by: null, locked_until: null, last_error: 'gave up' });
    server.clock.advance(60 * BACK_OFF_MS);
    await failing.idle();
    expect(runs).toEqual([1, 2, 3]);
    expect(givenUp).toHaveLength(1);
  });

  it('takes over a job whose worker stopped renewing its lease, once the lease has run out', async () => {
    const id = await newJob();
    const dead = (await claim(server.db, 'a-process-that-died', LEASE_MS, now()))!;
    const runs: JobRow[] = [];
    const taking = worker(server.ctx, {
      async run(job, claimed) {
        runs.push(job);
        await claimed.finish('done', async () => undefined);
      },
      async giveUp() {
        throw new Error('not expected: the job succeeds');
      },
    });
    await taking.idle();
    expect(runs).toEqual([]);

    server.clock.advance(LEASE_MS + 1);
    await taking.idle();
    expect(runs.map((job) => ({ id: job.id, attempts: job.attempts, lockedBy: job.locked_by }))).toEqual([{ id, attempts: 2, lockedBy: taking.id }]);
    expect(await jobRow(id)).toMatchObject({ state: 'done', attempts: 2, locked_by: null });
    await expect(finish(server.db, dead, 'a-process-that-died', 'done', now(), async () => undefined)).rejects.toBeInstanceOf(LeaseLostError);
    expect((await jobRow(id)).state).toBe('done');
  });

  it('ends an exam whose processing fails every time in the session’s error, announced once, with no notice of success', async () => {
    const nurse = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const token = await sessionFor(server.db, nurse.id, { clock: server.clock });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array((await smallExam({ seed: 2801 })).bytes)]), 'exam.npt');
    const uploaded = await server.call<Body>('POST', '/treatments', { token, form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const treatmentId: string = uploaded.body.data.treatment.id;

    // Exam processing as the server runs it, on a store that does not answer (a passing failure each time),
    // announcing to a recorder instead of the clinic's screens.
    const announced: OutgoingEvent[] = [];
    const recorder: Publisher = { publish: async (events) => void announced.push(...events), listening: () => {}, settled: async () => {} };
    const reads: string[] = [];
    const unreachable = {
      ...server.ctx.files,
      get: async (key: string) => {
        reads.push(key);
        throw new StorageUnavailableError('the object store does not answer');
      },
    };
    const ctx: AppContext = { ...server.ctx, files: unreachable, realtime: recorder };
    const processing = worker(ctx, examProcessing(ctx));

    await processing.idle();
    expect(reads).toHaveLength(1);
    const job = await server.db.selectFrom('jobs').selectAll().where('subject_id', '=', treatmentId).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'queued', attempts: 1, last_error: 'the object store does not answer' });
    // Between attempts the session is still being processed, not failed.
    const meanwhile = await server.call<Body>('GET', `/treatments/${treatmentId}`, { token });
    expect(meanwhile.body.data).toMatchObject({ planStatus: 'processing', error: null });

    server.clock.advance(BACK_OFF_MS);
    await processing.idle();
    server.clock.advance(2 * BACK_OFF_MS);
    await processing.idle();
    expect(reads).toHaveLength(3);
    expect(await server.db.selectFrom('jobs').selectAll().where('subject_id', '=', treatmentId).execute()).toEqual([
      expect.objectContaining({ state: 'failed', attempts: 3, last_error: 'treatment.processing_failed' }),
    ]);

    const messages: Record<string, string> = {};
    for (const lang of ['en', 'de'] as const) {
      const read = await server.call<Body>('GET', `/treatments/${treatmentId}`, { token, lang });
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ planStatus: 'no_plan_available', images: [], error: { code: 'treatment.processing_failed' } });
      messages[lang] = read.body.data.error.message;
    }
    expect(messages.en).toBe('The file could not be processed. Please delete the session and upload the file again; if it happens again, report it to your IT administrator.');
    expect(messages.de).toBe('Die Datei konnte nicht verarbeitet werden. Bitte löschen Sie die Sitzung und laden Sie die Datei erneut hoch; geschieht es wieder, melden Sie es Ihrer IT-Administration.');

    const failed = announced.filter((event) => event.name === 'treatment.failed');
    expect(failed).toEqual([expect.objectContaining({ to: clinicId, payload: { patientId: uploaded.body.data.patient.id, treatmentId } })]);
    expect(announced.filter((event) => event.name === 'treatment.processed')).toEqual([]);
    const notices = await server.db.selectFrom('notifications').select('event').where('user_id', '=', nurse.id).execute();
    expect(notices.filter((notice) => notice.event === 'treatment_processed')).toEqual([]);

    // Given up for good: later polls try nothing more.
    server.clock.advance(60 * BACK_OFF_MS);
    await processing.idle();
    expect(reads).toHaveLength(3);
    expect(announced.filter((event) => event.name === 'treatment.failed')).toHaveLength(1);
  });
});
