// The process's pool of worker threads for heavy work (issue 28): detection, registration, NPT inflation and
// validation, brightness decoding and the PDF run there (server/workers/tasks.ts), so that the server's thread,
// which on PGlite also runs every query, only awaits them. One pool per process, sized to the machine: the
// server (buildApp) and `npm start` hold it open and close it when they stop; code that runs a task without
// either (the demo seed in a test) gets it made on first use, its idle threads never keeping the process alive.
// A worker thread that crashes or is terminated fails its task only (the job queue retries a job); piscina
// starts another thread for the next task.
// sharp is loaded here, on the server's thread, although only the workers use it: libvips must stay loaded
// while worker threads that used it come and go (sharp's documentation, "worker threads").
import 'sharp';
import { Piscina } from 'piscina';
import { type Config, loadConfig } from '../config';
import { consoleLog } from '../context';
import { HttpError } from '../http/errors';
import type { TaskInput, TaskMessage, TaskName, TaskOutput } from './tasks';
import type { Handover } from './transfer';

/** The pool's size (WORKER_THREADS, WORKER_QUEUE_LIMIT: server/config.ts). */
export type WorkPoolOptions = Pick<Config, 'workerThreads' | 'workerQueueLimit'>;

/** Threads are started when work comes and end after this long without any (the first task waits for one to load). */
const IDLE_MS = 60_000;
/** piscina's refusals when no thread is free and no more tasks may wait. */
const QUEUE_FULL = ['Task queue is at limit', 'No task queue available and all Workers are busy'];

const serverBusy = () => new HttpError(503, 'server.busy', 'server.busy', {}, {}, {}, { 'Retry-After': '10' });

let pool: Piscina<TaskMessage, unknown> | null = null;
let holds = 0;
/** Fault tests: task names whose first run in this process was told to die (MACULA_FAULT_WORKER_EXIT). */
const faulted = new Set<string>();

function makePool(options: WorkPoolOptions): Piscina<TaskMessage, unknown> {
  const made = new Piscina<TaskMessage, unknown>({
    filename: new URL('./entry.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: options.workerThreads,
    maxQueue: options.workerQueueLimit,
    idleTimeout: IDLE_MS,
    // Where the machine is short of cores, requests come before image work (Linux, macOS: the thread's nice value).
    niceIncrement: 10,
  });
  // A thread that fails while idle (or while loading) has no task to fail: it is reported, never thrown.
  made.on('error', (error: unknown) => consoleLog.error({ err: error }, 'a worker thread failed'));
  return made;
}

/**
 * Holds the process's pool open (made now with `options` if none is open: the first holder's size counts) until
 * the returned release is called; the last release closes it, ending its threads.
 */
export function holdWorkPool(options: WorkPoolOptions): () => Promise<void> {
  pool ??= makePool(options);
  holds += 1;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    holds -= 1;
    if (holds > 0 || !pool) return;
    const closing = pool;
    pool = null;
    await closing.destroy();
  };
}

/** Fault tests only (never in production): MACULA_FAULT_WORKER_EXIT names a task whose first run kills its thread. */
function faultFor(task: TaskName): 'exit' | undefined {
  if (process.env.NODE_ENV === 'production' || process.env.MACULA_FAULT_WORKER_EXIT !== task || faulted.has(task)) return undefined;
  faulted.add(task);
  return 'exit';
}

/**
 * Runs `task` in a worker thread and resolves with its answer. The buffers of `handover` move to the thread
 * (unusable here afterwards). Refused with 503 `server.busy` when the queue is full; a thread that dies fails the
 * task with an error (a passing failure for a job).
 */
export async function runTask<K extends TaskName>(task: K, input: TaskInput<K>, handover?: Handover): Promise<TaskOutput<K>> {
  pool ??= makePool(loadConfig());
  const fault = faultFor(task);
  try {
    return (await pool.run({ task, input, ...(fault && { fault }) }, { transferList: handover?.list })) as TaskOutput<K>;
  } catch (error) {
    if (error instanceof Error && QUEUE_FULL.includes(error.message)) throw serverBusy();
    throw error;
  }
}
