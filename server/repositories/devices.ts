// The devices as API clients (issue 29): adding one, its enrolment code and credential (hashes only), its
// heartbeats, and the sweep that marks silent ones Offline. The IT admin's list is in ./clinic.ts.
import { sql } from 'kysely';
import type { DeviceRow, Queryable } from '../db/tables';

export const ONLINE = 'RUNNING';
export const OFFLINE = 'CONNECTION_FAILED';

export interface NewDevice {
  clinicId: string;
  deviceId: string;
  opticalHeadId: string;
  camera: string;
  description: string | null;
  codeHash: string;
  codeExpiresAt: Date;
}

/** Adds a device with its first enrolment code; undefined when the clinic has one with this serial already. */
export function insertDevice(db: Queryable, device: NewDevice): Promise<DeviceRow | undefined> {
  return db
    .insertInto('devices')
    .values({
      clinic_id: device.clinicId,
      device_id: device.deviceId,
      optical_head_id: device.opticalHeadId,
      camera: device.camera,
      description: device.description,
      sync_app_status: OFFLINE,
      enrolment_code_hash: device.codeHash,
      enrolment_expires_at: device.codeExpiresAt,
    })
    .onConflict((oc) => oc.columns(['clinic_id', 'device_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** A new enrolment code for a device of the clinic (an open one stops working); undefined for no such device. */
export function setEnrolmentCode(db: Queryable, clinicId: string, id: string, codeHash: string, expiresAt: Date): Promise<DeviceRow | undefined> {
  return db
    .updateTable('devices')
    .set({ enrolment_code_hash: codeHash, enrolment_expires_at: expiresAt })
    .where('clinic_id', '=', clinicId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The device's credential and open code stop working; it is Offline. Undefined for no such device. */
export function revokeCredential(db: Queryable, clinicId: string, id: string, now: Date): Promise<DeviceRow | undefined> {
  return db
    .updateTable('devices')
    .set({
      credential_hash: null,
      enrolment_code_hash: null,
      enrolment_expires_at: null,
      revoked_at: now,
      enrolled_at: null,
      sync_app_status: OFFLINE,
    })
    .where('clinic_id', '=', clinicId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Exchanges an open, unexpired code for a credential, in one statement: a code works once even when two sync
 * apps send it at the same moment. Undefined when no device has this code open.
 */
export function exchangeEnrolmentCode(
  db: Queryable,
  codeHash: string,
  credentialHash: string,
  syncAppVersion: string,
  now: Date,
): Promise<DeviceRow | undefined> {
  return db
    .updateTable('devices')
    .set({
      credential_hash: credentialHash,
      enrolment_code_hash: null,
      enrolment_expires_at: null,
      enrolled_at: now,
      revoked_at: null,
      sync_app_version: syncAppVersion,
      sync_app_status: ONLINE,
      last_seen_at: now,
    })
    .where('enrolment_code_hash', '=', codeHash)
    .where('enrolment_expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
}

/** What a device's credential says about it: enough to authenticate its calls. */
export interface DeviceIdentity {
  id: string;
  clinicId: string;
  deviceId: string;
}

export function deviceByCredential(db: Queryable, credentialHash: string): Promise<DeviceIdentity | undefined> {
  return db
    .selectFrom('devices')
    .select(['id', 'clinic_id as clinicId', 'device_id as deviceId'])
    .where('credential_hash', '=', credentialHash)
    .executeTakeFirst();
}

/**
 * A heartbeat: seen now, running this version. Returns the row and whether the device was Offline before
 * (then the screens are told); undefined when the credential was revoked meanwhile.
 */
export async function recordHeartbeat(
  db: Queryable,
  id: string,
  credentialHash: string,
  syncAppVersion: string,
  now: Date,
): Promise<{ row: DeviceRow; cameOnline: boolean } | undefined> {
  const result = await sql<DeviceRow & { was_status: string }>`
    update devices d set last_seen_at = ${now}, sync_app_version = ${syncAppVersion}, sync_app_status = ${ONLINE}
    from (select id, sync_app_status from devices where id = ${id} for update) before
    where d.id = before.id and d.credential_hash = ${credentialHash}
    returning d.*, before.sync_app_status as was_status`.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  const { was_status: wasStatus, ...device } = row;
  return { row: device as DeviceRow, cameOnline: wasStatus !== ONLINE };
}

/** Marks Offline every online device not heard from since `silentSince`; returns them (id and clinic). */
export function markSilentOffline(db: Queryable, silentSince: Date): Promise<{ id: string; clinic_id: string }[]> {
  return db
    .updateTable('devices')
    .set({ sync_app_status: OFFLINE })
    .where('sync_app_status', '=', ONLINE)
    .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', silentSince)]))
    .returning(['id', 'clinic_id'])
    .execute();
}
