// The audit records of reads (the patient list), written together: requests that arrive while one insert
// runs wait for the next, which takes all of them in one statement. Each request still answers only once
// its record is stored (as with audit()), but a busy list costs one insert per batch instead of one per
// request. Records of changes stay in their change's transaction (audit()).
import type { FastifyRequest } from 'fastify';
import { type Insertable, sql } from 'kysely';
import type { AuditLogTable, Database } from '../db/tables';
import type { AuditEntry } from './audit';

type Row = Omit<Insertable<AuditLogTable>, 'detail'> & { detail: Record<string, unknown> };

interface Batch {
  rows: Row[];
  done: Promise<void>;
}

interface Writer {
  next: Batch | null;
  writing: Promise<void> | null;
}

// Large batches are split: one insert of a few hundred rows at most.
const BATCH_ROWS = 500;

const writers = new WeakMap<Database, Writer>();

function rowOf(request: FastifyRequest, entry: AuditEntry): Row {
  return {
    clinic_id: entry.clinicId ?? request.auth?.clinicId ?? null,
    actor_id: entry.actorId ?? request.auth?.userId ?? null,
    actor_role: entry.actorRole ?? request.auth?.role ?? null,
    action: entry.action,
    outcome: entry.outcome,
    target_type: entry.targetType ?? null,
    target_id: entry.targetId ?? null,
    ip: request.ip ?? null,
    detail: entry.detail ?? {},
  };
}

/** Records a read; resolves once the record is stored (with others that came at the same time). */
export function auditRead(db: Database, request: FastifyRequest, entry: AuditEntry): Promise<void> {
  let writer = writers.get(db);
  if (!writer) writers.set(db, (writer = { next: null, writing: null }));
  const row = rowOf(request, entry);
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
      // One JSON parameter instead of nine per row: cheap to build and to bind for hundreds of rows.
      await sql`
        insert into audit_log (clinic_id, actor_id, actor_role, action, outcome, target_type, target_id, ip, detail)
        select clinic_id, actor_id, actor_role, action, outcome, target_type, target_id, ip, detail
        from jsonb_to_recordset(${JSON.stringify(batch.rows)}::jsonb) as r(
          clinic_id uuid, actor_id uuid, actor_role text, action text, outcome text, target_type text,
          target_id text, ip text, detail jsonb)
      `.execute(db);
    });
  writer.next = batch;
  writer.writing = batch.done;
  return batch.done;
}
