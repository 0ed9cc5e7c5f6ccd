// The audit records of reads (lists, images, notifications: reads that come many at once), written together: requests that arrive while one insert
// runs wait for the next, which takes all of them in one statement. Each request still answers only once
// its record is stored (as with audit()), but a busy list costs one insert per batch instead of one per
// request. Records of changes stay in their change's transaction (audit()).
import type { Database } from '../db/tables';
import { type AuditRow, insertAuditEntries } from '../repositories/access-log';
import { type AuditEntry, auditRow, type AuditSource } from './audit';

interface Batch {
  rows: AuditRow[];
  done: Promise<void>;
}

interface Writer {
  next: Batch | null;
  writing: Promise<void> | null;
}

// Large batches are split: one insert of a few hundred rows at most.
const BATCH_ROWS = 500;

const writers = new WeakMap<Database, Writer>();

/** Records a read; resolves once the record is stored (with others that came at the same time). */
export function auditRead(db: Database, source: AuditSource, entry: AuditEntry): Promise<void> {
  let writer = writers.get(db);
  if (!writer) writers.set(db, (writer = { next: null, writing: null }));
  const row = auditRow(source, entry);
  if (writer.next && writer.next.rows.length < BATCH_ROWS) {
    writer.next.rows.push(row);
    return writer.next.done;
  }
  const batch: Batch = { rows: [row], done: Promise.resolve() };
  const previous = writer.writing ?? Promise.resolve();
  const current = writer;
  // The batch is written after the one before it (whatever became of that one), with every row added
  // until then; a failure reaches each request of its batch.
  batch.done = previous
    .catch(() => undefined)
    // After the requests that arrived with this one were read (setImmediate runs after the poll phase):
    // on PGlite a query blocks the thread, and without the wait every batch would hold one record.
    .then(() => new Promise((resolve) => setImmediate(resolve)))
    .then(async () => {
      if (current.next === batch) current.next = null;
      await insertAuditEntries(db, batch.rows);
    });
  writer.next = batch;
  writer.writing = batch.done;
  return batch.done;
}
