// Durable background jobs in the database. A worker claims one job at a time with FOR UPDATE SKIP LOCKED
// and holds it by a lease it renews while it works; when its process dies, the lease runs out and another
// worker (or the same server after a restart) claims the job again. A job's results are written in the
// same transaction that marks it done, and only while the lease is still this worker's, so a job takes
// effect exactly once even when two processes share one PostgreSQL.
import { sql, type Transaction } from 'kysely';
import type { Database, JobRow, Tables } from '../db/tables';

export type JobKind = 'treatment.process' | 'treatment.pack' | 'treatment.register';

export interface NewJob {
  kind: JobKind;
  clinicId: string;
  subjectId: string;
  /** The application clock's time: the job is due from then (not the database's clock, which tests cannot move). */
  now: Date;
  maxAttempts?: number;
}

export async function enqueue(db: Database | Transaction<Tables>, job: NewJob): Promise<string> {
  const row = await db
    .insertInto('jobs')
    .values({
      kind: job.kind,
      clinic_id: job.clinicId,
      subject_id: job.subjectId,
      run_after: job.now,
      created_at: job.now,
      ...(job.maxAttempts ? { max_attempts: job.maxAttempts } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Claims the oldest ready job (queued and due, or running with a lapsed lease), or null. */
export async function claim(db: Database, workerId: string, leaseMs: number, now: Date): Promise<JobRow | null> {
  const until = new Date(now.getTime() + leaseMs);
  const result = await sql<JobRow>`
    update jobs
    set state = 'running', locked_by = ${workerId}, locked_until = ${until}, attempts = attempts + 1
    where id = (
      select id from jobs
      where (state = 'queued' and run_after <= ${now}) or (state = 'running' and locked_until < ${now})
      order by run_after, created_at
      limit 1
      for update skip locked
    )
    returning *
  `.execute(db);
  return result.rows[0] ?? null;
}

/** Extends the lease; false when the job is no longer this worker's (it lapsed and was claimed again). */
export async function renewLease(db: Database, job: JobRow, workerId: string, leaseMs: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ locked_until: new Date(now.getTime() + leaseMs) })
    .where('id', '=', job.id)
    .where('locked_by', '=', workerId)
    .where('state', '=', 'running')
    .where('attempts', '=', job.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export class LeaseLostError extends Error {
  constructor(jobId: string) {
    super(`job ${jobId}: lease lost to another worker`);
  }
}

/**
 * Runs `work` in one transaction that also ends the job (`done` or `failed`), after checking under a row
 * lock that the job is still held by this claim. Throws LeaseLostError (and changes nothing) otherwise.
 */
export async function finish<T>(
  db: Database,
  job: JobRow,
  workerId: string,
  state: 'done' | 'failed',
  now: Date,
  work: (tx: Transaction<Tables>) => Promise<T>,
  lastError: string | null = null,
): Promise<T> {
  return db.transaction().execute(async (tx) => {
    const held = await tx
      .selectFrom('jobs')
      .select('id')
      .where('id', '=', job.id)
      .where('locked_by', '=', workerId)
      .where('state', '=', 'running')
      .where('attempts', '=', job.attempts)
      .forUpdate()
      .executeTakeFirst();
    if (!held) throw new LeaseLostError(job.id);
    const result = await work(tx);
    await tx
      .updateTable('jobs')
      .set({ state, finished_at: now, locked_by: null, locked_until: null, last_error: lastError })
      .where('id', '=', job.id)
      .execute();
    return result;
  });
}

/** Puts a job back in the queue after a passing failure, to be tried again after `delayMs`. */
export async function retryLater(db: Database, job: JobRow, workerId: string, error: string, delayMs: number, now: Date) {
  await db
    .updateTable('jobs')
    .set({ state: 'queued', run_after: new Date(now.getTime() + delayMs), locked_by: null, locked_until: null, last_error: error })
    .where('id', '=', job.id)
    .where('locked_by', '=', workerId)
    .where('attempts', '=', job.attempts)
    .execute();
}

/**
 * Embedded PGlite belongs to one process: at start, every job still marked running was held by a process
 * that is gone, so it is queued again at once instead of waiting for its lease to lapse.
 */
export async function releaseOrphans(db: Database): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set({ state: 'queued', locked_by: null, locked_until: null })
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
