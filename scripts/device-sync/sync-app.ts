// The reference sync app's loop (issue 29): it reports the device by heartbeat every `heartbeatSeconds` the
// server names, uploads the exams that appear in the watched folder (each once: outbox-ledger.ts), hands the
// signed plans' parameter sets to the laser's folder and confirms them (laser-outbox.ts), and rides out a server that restarts or cannot be reached by retrying with back-off (the
// server's Retry-After first). A refused credential ends it: the device must be enrolled again.
import { type DeviceApi, DeviceApiError } from './client';
import { placeParameterSet, sha256Of, simulatedTreatment, type TransferLedger, withdrawParameterSet } from './laser-outbox';
import { settledExams, type UploadLedger } from './outbox-ledger';

export type SyncEvent =
  | { kind: 'online'; deviceId: string; heartbeatSeconds: number }
  | { kind: 'retrying'; inMs: number; failures: number; reason: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'uploaded'; file: string; treatmentId: string; before: boolean }
  | { kind: 'upload-refused'; file: string; reason: string }
  | { kind: 'received'; file: string; transferId: string }
  | { kind: 'withdrawn'; file: string | null; transferId: string }
  | { kind: 'reported'; transferId: string; outcome: 'treated' | 'failed'; spots: number };

export interface SyncAppOptions {
  /** The sync app's version, reported with each heartbeat. */
  version: string;
  log: (event: SyncEvent) => void;
  /** Back-off's random share (tests pin it). */
  random?: () => number;
  /** The folder the laser exports its exams to, and what of it the server has. */
  watch?: { dir: string; ledger: UploadLedger };
  /** The folder the laser imports parameter sets from; `simulateTreatment` reports each as treated. */
  outbox?: { dir: string; ledger: TransferLedger; simulateTreatment: boolean };
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
        await this.takeParameterSets();
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
        await watch.ledger.set(exam.sha256, { file: exam.name, treatmentId: answer.data.treatmentId });
        this.options.log({ kind: 'uploaded', file: exam.name, treatmentId: answer.data.treatmentId, before: false });
      } catch (error) {
        if (!(error instanceof DeviceApiError) || error.status === 401) throw error;
        const earlier = error.code === 'treatment.duplicate_upload' ? (error.body.treatment as { id?: unknown } | undefined)?.id : undefined;
        if (typeof earlier === 'string') {
          await watch.ledger.set(exam.sha256, { file: exam.name, treatmentId: earlier });
          this.options.log({ kind: 'uploaded', file: exam.name, treatmentId: earlier, before: true });
        } else {
          await watch.ledger.set(exam.sha256, { file: exam.name, refused: error.code ?? String(error.status) });
          this.options.log({ kind: 'upload-refused', file: exam.name, reason: error.message });
        }
      }
    }
  }

  /**
   * Fetches what waits for the device into the laser's folder and confirms it; with `simulateTreatment`,
   * reports what was received as treated. A transfer withdrawn meanwhile leaves the folder.
   */
  private async takeParameterSets(): Promise<void> {
    const outbox = this.options.outbox;
    if (!outbox) return;
    const listed = await withRetries(() => this.api.listParameterSets(), this, this.options);
    for (const transfer of listed?.data ?? []) {
      if (this.stopped) return;
      try {
        let record = outbox.ledger.get(transfer.id);
        if (transfer.status === 'queued') {
          const bytes = await withRetries(() => this.api.fetchParameterSet(transfer.id), this, this.options);
          if (!bytes) return;
          // Bytes other than announced are not handed to the laser; the next look fetches again.
          if (bytes.length !== transfer.size || sha256Of(bytes) !== transfer.sha256) continue;
          const file = await placeParameterSet(outbox.dir, transfer.fileName, bytes);
          record = { file };
          await outbox.ledger.set(transfer.id, record);
          if (!(await withRetries(() => this.api.acknowledge(transfer.id, transfer.sha256), this, this.options))) return;
          this.options.log({ kind: 'received', file, transferId: transfer.id });
        }
        if (!outbox.simulateTreatment || !record || record.reported) continue;
        // The report is kept before it is sent: after a restart the same one goes again.
        const report = record.report ?? (await simulatedTreatment(outbox.dir, record.file, new Date()));
        await outbox.ledger.set(transfer.id, { ...record, report });
        if (!(await withRetries(() => this.api.reportDelivery(transfer.id, report), this, this.options))) return;
        await outbox.ledger.set(transfer.id, { ...record, report, reported: true });
        this.options.log({ kind: 'reported', transferId: transfer.id, outcome: report.outcome, spots: report.spots?.length ?? 0 });
      } catch (error) {
        if (!(error instanceof DeviceApiError) || error.status === 401) throw error;
        if (error.code !== 'transfer.cancelled') throw error;
        const record = outbox.ledger.get(transfer.id);
        if (record) await withdrawParameterSet(outbox.dir, record.file);
        this.options.log({ kind: 'withdrawn', file: record?.file ?? null, transferId: transfer.id });
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
