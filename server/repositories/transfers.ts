// Parameter sets on their way to the lasers (issue 29, migration 0017): queued at packing, fetched and
// confirmed by the device, reported treated or failed, or cancelled.
import { sql } from 'kysely';
import type { DeliveredSpot, Queryable, TransferRow, TransferStatus } from '../db/tables';

const OPEN = ['queued', 'received'] as const;

/** Whether the device holds a credential (only an enrolled device is sent parameter sets). */
export async function deviceEnrolled(db: Queryable, deviceId: string): Promise<boolean> {
  const row = await db.selectFrom('devices').select('id').where('id', '=', deviceId).where('credential_hash', 'is not', null).executeTakeFirst();
  return row !== undefined;
}

/** Cancels the session's open transfer, if any (a new parameter set replaces it). */
export function cancelOpenTransfers(db: Queryable, treatmentId: string, now: Date): Promise<TransferRow[]> {
  return db
    .updateTable('parameter_set_transfers')
    .set({ status: 'cancelled', finished_at: now })
    .where('treatment_id', '=', treatmentId)
    .where('status', 'in', OPEN)
    .returningAll()
    .execute();
}

export interface NewTransfer {
  clinicId: string;
  treatmentId: string;
  deviceId: string;
  fileName: string;
  size: number;
  sha256: string;
  at: Date;
}

export function insertTransfer(db: Queryable, transfer: NewTransfer): Promise<TransferRow> {
  return db
    .insertInto('parameter_set_transfers')
    .values({
      clinic_id: transfer.clinicId,
      treatment_id: transfer.treatmentId,
      device_id: transfer.deviceId,
      status: 'queued',
      file_name: transfer.fileName,
      size: transfer.size,
      sha256: transfer.sha256,
      queued_at: transfer.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** What waits for the device: its open transfers, oldest first. */
export function openTransfersOf(db: Queryable, deviceId: string): Promise<TransferRow[]> {
  return db.selectFrom('parameter_set_transfers').selectAll().where('device_id', '=', deviceId).where('status', 'in', OPEN).orderBy('queued_at').orderBy('id').execute();
}

/** A transfer addressed to the device, locked for the rest of the transaction when asked. */
export function transferOfDevice(db: Queryable, deviceId: string, id: string, lock = false): Promise<TransferRow | undefined> {
  const query = db.selectFrom('parameter_set_transfers').selectAll().where('device_id', '=', deviceId).where('id', '=', id);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export function markReceived(db: Queryable, id: string, at: Date): Promise<TransferRow> {
  return db.updateTable('parameter_set_transfers').set({ status: 'received', received_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export function markCancelled(db: Queryable, id: string, at: Date): Promise<TransferRow> {
  return db.updateTable('parameter_set_transfers').set({ status: 'cancelled', finished_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export function markFinished(
  db: Queryable,
  id: string,
  outcome: { status: 'treated'; spots: DeliveredSpot[] } | { status: 'failed'; reason: string },
  at: Date,
): Promise<TransferRow> {
  return db
    .updateTable('parameter_set_transfers')
    .set(
      outcome.status === 'treated'
        ? { status: 'treated', finished_at: at, delivery: JSON.stringify(outcome.spots) }
        : { status: 'failed', finished_at: at, failure_reason: outcome.reason },
    )
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A session's transfer with the device it is addressed to, as the product shows it. */
export type SessionTransferRow = TransferRow & { device_serial: string; device_description: string | null };

const withDevice = (db: Queryable) =>
  db
    .selectFrom('parameter_set_transfers as t')
    .innerJoin('devices as d', 'd.id', 't.device_id')
    .selectAll('t')
    .select(['d.device_id as device_serial', 'd.description as device_description']);

/** Each named session's latest transfer (the one inserted last), by session id. */
export async function latestTransfers(db: Queryable, treatmentIds: readonly string[]): Promise<Map<string, SessionTransferRow>> {
  if (!treatmentIds.length) return new Map();
  const rows = await withDevice(db).where('t.treatment_id', 'in', treatmentIds).distinctOn('t.treatment_id').orderBy('t.treatment_id').orderBy('t.sequence', 'desc').execute();
  return new Map(rows.map((row) => [row.treatment_id, row]));
}

/** The session's latest transfer, locked for the rest of the transaction when asked. */
export function latestTransferOf(db: Queryable, treatmentId: string, lock = false): Promise<SessionTransferRow | undefined> {
  const query = withDevice(db).where('t.treatment_id', '=', treatmentId).orderBy('t.sequence', 'desc').limit(1);
  return (lock ? query.forUpdate('t') : query).executeTakeFirst();
}

/** The session's latest transfer the laser reported as treated (what was delivered), if any. */
export function treatedTransferOf(db: Queryable, treatmentId: string): Promise<SessionTransferRow | undefined> {
  return withDevice(db).where('t.treatment_id', '=', treatmentId).where('t.status', '=', 'treated').orderBy('t.sequence', 'desc').limit(1).executeTakeFirst();
}

/** The status of the latest transfer of the session `alias.id` (the patient list's latest session). */
export const latestTransferStatusSql = (alias: string) =>
  sql<TransferStatus | null>`(select t.status from parameter_set_transfers t where t.treatment_id = ${sql.ref(`${alias}.id`)} order by t.sequence desc limit 1)`;
