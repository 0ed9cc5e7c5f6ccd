// The worker of one server process: claims jobs one at a time (image work is CPU-bound), renews the lease
// while a job runs, retries passing failures with a growing delay and gives up after the last attempt.
import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../context';
import type { JobRow, Tables } from '../db/tables';
import { claim, finish, LeaseLostError, renewLease, retryLater, type JobKind } from './queue';

/** What a job's run may do with its claim. */
export interface Claim {
  workerId: string;
  /** Ends the job in one transaction with `work`; throws LeaseLostError when the claim lapsed. */
  finish<T>(state: 'done' | 'failed', work: (tx: Transaction<Tables>) => Promise<T>, lastError?: string | null): Promise<T>;
}

export interface JobDefinition {
  /** Does the work and ends the job with `claim.finish`. A throw counts as a passing failure. */
  run(job: JobRow, claim: Claim): Promise<void>;
  /** After the last attempt failed: record the failure (also through `claim.finish`). */
  giveUp(job: JobRow, claim: Claim, error: unknown): Promise<void>;
}

export interface WorkerOptions {
  leaseMs: number;
  pollMs?: number;
  log?: (message: string, error?: unknown) => void;
}

export interface Worker {
  id: string;
  /** Looks for work now (after an upload) instead of at the next poll. */
  wake(): void;
  /** Resolves after a look at the queue begun after the call found nothing ready (tests, seeding). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

const RETRY_DELAY_MS = 2_000;

/**
 * Runs the queued job of `kind` for `subjectId` at once, in this process, outside any worker (the demo seed,
 * before the server starts its worker). The job is claimed and finished as a worker would; a failure throws.
 */
export async function runQueuedJob(ctx: AppContext, kind: JobKind, subjectId: string, definition: JobDefinition): Promise<void> {
  const workerId = `${hostname()}:${process.pid}:now`;
  const [job] = (
    await ctx.db
      .updateTable('jobs')
      .set({ state: 'running', locked_by: workerId, locked_until: new Date(ctx.clock.now().getTime() + 60_000), attempts: sql`attempts + 1` })
      .where('kind', '=', kind)
      .where('subject_id', '=', subjectId)
      .where('state', '=', 'queued')
      .returningAll()
      .execute()
  ).slice(0, 1);
  if (!job) throw new Error(`no queued ${kind} job for ${subjectId}`);
  await definition.run(job, { workerId, finish: (state, work, lastError = null) => finish(ctx.db, job, workerId, state, ctx.clock.now(), work, lastError) });
}

export function startWorker(ctx: AppContext, definitions: Record<string, JobDefinition>, options: WorkerOptions): Worker {
  const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const pollMs = options.pollMs ?? 1_000;
  const log = options.log ?? (() => {});
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let idleWaiters: (() => void)[] = [];
  // Woken while draining: the drain may just have found the queue empty, so look once more.
  let wokenWhileRunning = false;

  const claimFor = (job: JobRow): Claim => ({
    workerId: id,
    finish: (state, work, lastError = null) => finish(ctx.db, job, id, state, ctx.clock.now(), work, lastError),
  });

  async function runOne(job: JobRow): Promise<void> {
    const definition = definitions[job.kind];
    const claimed = claimFor(job);
    const heartbeat = setInterval(() => {
      renewLease(ctx.db, job, id, options.leaseMs, ctx.clock.now()).catch((error) => log(`job ${job.id}: lease renewal failed`, error));
    }, Math.max(250, options.leaseMs / 3));
    try {
      if (!definition) throw new Error(`no definition for job kind ${job.kind}`);
      await definition.run(job, claimed);
    } catch (error) {
      if (error instanceof LeaseLostError) {
        log(error.message);
        return;
      }
      log(`job ${job.id} (${job.kind}) failed on attempt ${job.attempts} of ${job.max_attempts}`, error);
      const message = error instanceof Error ? error.message : String(error);
      try {
        if (definition && job.attempts >= job.max_attempts) await definition.giveUp(job, claimed, error);
        else await retryLater(ctx.db, job, id, message, RETRY_DELAY_MS * job.attempts, ctx.clock.now());
      } catch (followUp) {
        if (!(followUp instanceof LeaseLostError)) log(`job ${job.id}: could not record the failure`, followUp);
      }
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function drain(): Promise<void> {
    while (!stopped) {
      let job: JobRow | null;
      try {
        job = await claim(ctx.db, id, options.leaseMs, ctx.clock.now());
      } catch (error) {
        log('job queue unavailable', error);
        return;
      }
      if (!job) return;
      await runOne(job);
    }
  }

  function tick(): void {
    if (stopped || running) return;
    wokenWhileRunning = false;
    running = drain().finally(() => {
      running = null;
      if (wokenWhileRunning && !stopped) return tick();
      const waiters = idleWaiters;
      idleWaiters = [];
      waiters.forEach((resolve) => resolve());
      schedule();
    });
  }

  function schedule(): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, pollMs);
    timer.unref();
  }

  // A request wakes the worker, but the jobs are not that request's work: they run in the worker's own
  // async context. Otherwise they would inherit the request's (its page's realtime socket, left out of what
  // the request announces) and the page that queued a job would never hear that the job finished.
  const inOwnContext = AsyncResource.bind((work: () => void) => work());

  tick();
  return {
    id,
    wake: () =>
      inOwnContext(() => {
        if (running) {
          wokenWhileRunning = true;
          return;
        }
        if (timer) clearTimeout(timer);
        tick();
      }),
    // A drain already under way may have looked before the caller's change (a job queued, the clock moved):
    // the answer waits for a drain that began after the call.
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        if (running) wokenWhileRunning = true;
        else inOwnContext(tick);
      }),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
