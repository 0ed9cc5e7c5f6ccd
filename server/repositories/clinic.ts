// The queries of a clinic's administration: its name, its security settings (and the users they name), its
// devices, and the counts its billing usage is made of. Each takes the database or a transaction.
import { sql } from 'kysely';
import { containsPattern } from '../db/listing';
import type { DeviceRow, Queryable, SecuritySettingsRow } from '../db/tables';

export async function clinicName(db: Queryable, clinicId: string): Promise<string> {
  return (await db.selectFrom('clinics').select('name').where('id', '=', clinicId).executeTakeFirstOrThrow()).name;
}

// ---- Security settings -------------------------------------------------------------------------------

/** The clinic's settings row, if it has one. */
export function findSecuritySettings(db: Queryable, clinicId: string): Promise<SecuritySettingsRow | undefined> {
  return db.selectFrom('security_settings').selectAll().where('clinic_id', '=', clinicId).executeTakeFirst();
}

/** The clinic's settings row, created with the table's defaults when missing. */
export async function securitySettingsOrDefaults(db: Queryable, clinicId: string): Promise<SecuritySettingsRow> {
  await db
    .insertInto('security_settings')
    .values({ clinic_id: clinicId })
    .onConflict((oc) => oc.column('clinic_id').doNothing())
    .execute();
  return db.selectFrom('security_settings').selectAll().where('clinic_id', '=', clinicId).executeTakeFirstOrThrow();
}

/** Whether the settings name this user (scope `several`). */
export async function settingsNameUser(db: Queryable, clinicId: string, userId: string): Promise<boolean> {
  const listed = await db
    .selectFrom('security_settings_users')
    .select('user_id')
    .where('clinic_id', '=', clinicId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Boolean(listed);
}

/** The users the settings name (scope `several`), as stored. */
export async function settingsUserIds(db: Queryable, clinicId: string): Promise<string[]> {
  const rows = await db.selectFrom('security_settings_users').select('user_id').where('clinic_id', '=', clinicId).execute();
  return rows.map((row) => row.user_id);
}

/** The users the settings name that are still the clinic's, by name. */
export async function settingsUserIdsByName(db: Queryable, clinicId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('security_settings_users as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select('s.user_id')
    .where('s.clinic_id', '=', clinicId)
    .where('u.clinic_id', '=', clinicId)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .orderBy('u.id')
    .execute();
  return rows.map((row) => row.user_id);
}

export type SecuritySettingsChange = Partial<
  Pick<
    SecuritySettingsRow,
    | 'password_strength'
    | 'password_renewal_interval'
    | 'password_renewal_period'
    | 'user_scope'
    | 'logout_time_interval'
    | 'logout_time_period'
    | 'two_factor_roles'
    | 'remember_device_days'
    | 'renewal_changed_at'
  >
> & { updated_at: Date };

export async function updateSecuritySettings(db: Queryable, clinicId: string, change: SecuritySettingsChange): Promise<void> {
  await db.updateTable('security_settings').set(change).where('clinic_id', '=', clinicId).execute();
}

/** The settings name exactly these users. */
export async function replaceSettingsUsers(db: Queryable, clinicId: string, userIds: string[]): Promise<void> {
  await db.deleteFrom('security_settings_users').where('clinic_id', '=', clinicId).execute();
  if (userIds.length) {
    await db
      .insertInto('security_settings_users')
      .values(userIds.map((user_id) => ({ clinic_id: clinicId, user_id })))
      .execute();
  }
}

// ---- Devices -----------------------------------------------------------------------------------------

export interface DeviceFilter {
  search?: string;
  status?: 'online' | 'offline';
}

/** The clinic's devices that match, by device id. */
export async function devicesOf(db: Queryable, clinicId: string, filter: DeviceFilter): Promise<DeviceRow[]> {
  let query = db.selectFrom('devices').selectAll().where('clinic_id', '=', clinicId);
  const search = filter.search?.trim();
  if (search) {
    const pattern = containsPattern(search);
    query = query.where((eb) =>
      eb.or([
        eb('device_id', 'ilike', pattern),
        eb('optical_head_id', 'ilike', pattern),
        eb('camera', 'ilike', pattern),
        eb('description', 'ilike', pattern),
      ]),
    );
  }
  if (filter.status === 'online') query = query.where('sync_app_status', '=', 'RUNNING');
  if (filter.status === 'offline') query = query.where('sync_app_status', '!=', 'RUNNING');
  return query.orderBy('device_id').orderBy('id').execute();
}

/** A device of the clinic, locked for the rest of the transaction. */
export function lockDevice(tx: Queryable, clinicId: string, id: string): Promise<DeviceRow | undefined> {
  return tx.selectFrom('devices').selectAll().where('clinic_id', '=', clinicId).where('id', '=', id).forUpdate().executeTakeFirst();
}

export function setLaserProfile(tx: Queryable, id: string, profileJson: string): Promise<DeviceRow> {
  return tx.updateTable('devices').set({ laser_profile: profileJson }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

// ---- Billing -----------------------------------------------------------------------------------------

export interface UsageCount {
  month: string;
  device_id: string | null;
  n: number | string;
}

const month = (column: string) => sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM')`;

/**
 * The laser a session is counted for: the enrolled device whose sync app uploaded its exam (its identity, issue
 * 29), else the device the exam file names.
 */
const billedDevice = sql<string | null>`coalesce(d.device_id, t.device_id)`;

/** Exams uploaded per month (UTC) and device in [start, end): the clinic's sessions by their creation. */
export function examsPerMonth(db: Queryable, clinicId: string, start: Date, end: Date): Promise<UsageCount[]> {
  return db
    .selectFrom('treatments as t')
    .leftJoin('devices as d', 'd.id', 't.uploaded_by_device_id')
    .select([month('t.created_at').as('month'), billedDevice.as('device_id'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('t.clinic_id', '=', clinicId)
    .where('t.created_at', '>=', start)
    .where('t.created_at', '<', end)
    .groupBy([sql`1`, sql`2`])
    .execute();
}

/** Plan changes of these actions per month (UTC), device and action in [start, end). */
export function planChangesPerMonth(
  db: Queryable,
  clinicId: string,
  actions: string[],
  start: Date,
  end: Date,
): Promise<(UsageCount & { action: string })[]> {
  return db
    .selectFrom('plan_changes as c')
    .innerJoin('treatments as t', 't.id', 'c.treatment_id')
    .leftJoin('devices as d', 'd.id', 't.uploaded_by_device_id')
    .select([month('c.at').as('month'), billedDevice.as('device_id'), 'c.action', (eb) => eb.fn.countAll<number>().as('n')])
    .where('t.clinic_id', '=', clinicId)
    .where('c.action', 'in', actions)
    .where('c.at', '>=', start)
    .where('c.at', '<', end)
    .groupBy([sql`1`, sql`2`, 'c.action'])
    .execute();
}
