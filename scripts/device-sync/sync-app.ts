// The reference sync app's loop (issue 29): it reports the device by heartbeat every `heartbeatSeconds` the
// server names, uploads the exams that appear in the watched folder (each once: outbox-ledger.ts), and rides out a server that restarts or cannot be reached by retrying with back-off (the
// server's Retry-After first). A refused credential ends it: the device must be enrolled again.
import { type DeviceApi, DeviceApiError } from './client';
import { settledExams, type UploadLedger } from './outbox-ledger';

export type SyncEvent =
  | { kind: 'online'; deviceId: string; heartbeatSeconds: number }
  | { kind: 'retrying'; inMs: number; failures: number; reason: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'uploaded'; file: string; treatmentId: string; before: boolean }
  | { kind: 'upload-refused'; file: string; reason: string };

export interface SyncAppOptions {
  /** The sync app's version, reported with each heartbeat. */
  version: string;
  log: (event: SyncEvent) => void;
  /** Back-off's random share (tests pin it). */
  random?: () => number;
  /** The folder the laser exports its exams to, and what of it the server has. */
  watch?: { dir: string; ledger: UploadLedger };
}

/** The longest wait between tries while the server cannot be reached. */
export const MAX_BACKOFF_MS = 60_000;

/** The n-th retry's wait: doubling from 1 s up to a minute, half of it random so that a clinic's lasers do not call in step. */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Runs `call` until it succeeds, waiting between tries as the server asks or by back-off; a refusal is thrown. */
export async function withRetries<T>(call: () => Promise<T>, app: { stopped: boolean; sleep(ms: number): Promise<void> }, options: SyncAppOptions): Promise<T | null> {
  for (let failures = 1; !app.stopped; failures += 1) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof DeviceApiError) || !error.transient) throw error;
      const inMs = error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : backoffMs(failures, options.random);
      options.log({ kind: 'retrying', inMs, failures, reason: error.message });
      await app.sleep(inMs);
    }
  }
  return null;
}

export class SyncApp {
  stopped = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly api: DeviceApi,
    private readonly options: SyncAppOptions,
  ) {}

  /** Heartbeats until stopped ('stopped') or until the server refuses the credential ('refused'). */
  async run(): Promise<'stopped' | 'refused'> {
    let wasOnline = false;
    while (!this.stopped) {
      try {
        const beat = await withRetries(() => this.api.heartbeat(this.options.version), this, this.options);
        if (!beat) break;
        const { deviceId, heartbeatSeconds } = beat.data;
        if (!wasOnline) this.options.log({ kind: 'online', deviceId, heartbeatSeconds });
        wasOnline = true;
        await this.uploadNewExams();
        await this.sleep(heartbeatSeconds * 1000);
      } catch (error) {
        if (!(error instanceof DeviceApiError)) throw error;
        // 401: revoked or unknown; anything else a client error that repeating will not mend.
        this.options.log({ kind: 'refused', reason: error.message });
        return 'refused';
      }
    }
    return 'stopped';
  }

  /**
   * Sends each settled exam of the watched folder the ledger does not know, one at a time. The server's answer
   * goes into the ledger: the session made, the session it made before (a duplicate: an earlier answer was
   * lost), or why it refused the file (not retried). A refused credential is thrown to `run`.
   */
  private async uploadNewExams(): Promise<void> {
    const watch = this.options.watch;
    if (!watch) return;
    for (const exam of await settledExams(watch.dir)) {
      if (this.stopped) return;
      if (watch.ledger.has(exam.sha256)) continue;
      try {
        const answer = await withRetries(() => this.api.uploadExam(exam.bytes, exam.name), this, this.options);
        if (!answer) return;
        await watch.ledger.record(exam.sha256, { file: exam.name, treatmentId: answer.data.treatmentId });
        this.options.log({ kind: 'uploaded', file: exam.name, treatmentId: answer.data.treatmentId, before: false });
      } catch (error) {
        if (!(error instanceof DeviceApiError) || error.status === 401) throw error;
        const earlier = error.code === 'treatment.duplicate_upload' ? (error.body.treatment as { id?: unknown } | undefined)?.id : undefined;
        if (typeof earlier === 'string') {
          await watch.ledger.record(exam.sha256, { file: exam.name, treatmentId: earlier });
          this.options.log({ kind: 'uploaded', file: exam.name, treatmentId: earlier, before: true });
        } else {
          await watch.ledger.record(exam.sha256, { file: exam.name, refused: error.code ?? String(error.status) });
          this.options.log({ kind: 'upload-refused', file: exam.name, reason: error.message });
        }
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  /** Waits, or less when stopped meanwhile. */
  sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
