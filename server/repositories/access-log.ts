// The queries of the access log: its entries written one at a time (in a change's transaction) or many at once
// (reads), its chain read in order for the check, a page of the clinic's entries with the acting user's names as
// they are now, and the names of the patients the page shows.
import { type Expression, type Insertable, type SqlBool, sql } from 'kysely';
import type { AuditLogTable, Queryable } from '../db/tables';

/** An entry as stored, before the database numbers and chains it (migration 0015's triggers). */
export type AuditRow = Omit<Insertable<AuditLogTable>, 'detail' | 'patient_ids'> & { detail: Record<string, unknown>; patient_ids: string[] };

/**
 * Stores one entry. A session's patient, when the entry names none: `patientsOfTreatment` (an id) names the
 * session whose row says whose it is.
 */
export async function insertAuditEntry(db: Queryable, row: AuditRow, patientsOfTreatment?: string): Promise<void> {
  const { detail, patient_ids: patientIds, ...columns } = row;
  await db
    .insertInto('audit_log')
    .values({
      ...columns,
      detail: JSON.stringify(detail),
      patient_ids:
        patientIds.length || !patientsOfTreatment
          ? sql<string[]>`${`{${patientIds.join(',')}}`}::uuid[]`
          : sql<string[]>`array(select patient_id from treatments where id = ${patientsOfTreatment})`,
    })
    .execute();
}

/** Stores many entries in one statement. */
export async function insertAuditEntries(db: Queryable, rows: readonly AuditRow[]): Promise<void> {
  // One JSON parameter instead of nine per row: cheap to build and to bind for hundreds of rows.
  await sql`
    insert into audit_log (clinic_id, actor_id, actor_role, action, outcome, target_type, target_id, ip, detail, patient_ids)
    select clinic_id, actor_id, actor_role, action, outcome, target_type, target_id, ip, detail, patient_ids
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
      clinic_id uuid, actor_id uuid, actor_role text, action text, outcome text, target_type text,
      target_id text, ip text, detail jsonb, patient_ids uuid[])
  `.execute(db);
}

/** The stored columns of an entry as text, as the chain trigger's canonical text reads them. */
export interface ChainRow {
  seq: string;
  id: string;
  clinic_id: string | null;
  actor_id: string | null;
  actor_role: string | null;
  action: string;
  outcome: string;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  patient_ids: string;
  detail: string;
  at: string;
  prev_hash: string;
  hash: string;
}

/** Up to `limit` entries from sequence number `fromSeq` on, in chain order. */
export async function chainRows(db: Queryable, fromSeq: bigint, limit: number): Promise<ChainRow[]> {
  const { rows } = await sql<ChainRow>`
    select seq::text as seq, id::text as id, clinic_id::text as clinic_id, actor_id::text as actor_id, actor_role,
      action, outcome, target_type, target_id, ip, array_to_string(patient_ids, ',') as patient_ids,
      detail::text as detail, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, prev_hash, hash
    from audit_log
    where audit_log.seq >= ${String(fromSeq)}::bigint
    -- The column, not the text alias of the same name (which would put 10 before 2).
    order by audit_log.seq
    limit ${limit}
  `.execute(db);
  return rows;
}

export interface AccessLogFilter {
  /** Lower-case: compared with the stored ids (the GIN index on patient_ids). */
  patientId?: string;
  actorId?: string;
  action?: string;
  from?: string;
  to?: string;
}

/** One page of the clinic's audit entries, newest first, with the count of all that match. */
export async function accessLogPage(db: Queryable, clinicId: string, filter: AccessLogFilter, page: { page: number; perPage: number }) {
  const base = db.selectFrom('audit_log as a').where((eb) => {
    const conditions: Expression<SqlBool>[] = [eb('a.clinic_id', '=', clinicId)];
    if (filter.patientId) conditions.push(sql<SqlBool>`a.patient_ids @> array[${filter.patientId}]::uuid[]`);
    if (filter.actorId) conditions.push(eb('a.actor_id', '=', filter.actorId));
    if (filter.action) conditions.push(eb('a.action', '=', filter.action));
    if (filter.from) conditions.push(eb('a.at', '>=', new Date(filter.from)));
    if (filter.to) conditions.push(eb('a.at', '<', new Date(filter.to)));
    return eb.and(conditions);
  });
  const { total } = await base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'a.actor_id').on('u.clinic_id', '=', clinicId))
    // A sync app's entry names its device as the target (server/services/device-sync.ts, deviceEntry).
    .leftJoin('devices as d', (join) =>
      join.on(sql<SqlBool>`a.actor_role = 'device' and a.target_type = 'device' and d.id::text = a.target_id`).on('d.clinic_id', '=', clinicId),
    )
    .select([
      'a.id',
      'a.seq',
      'a.at',
      'a.actor_id',
      'a.actor_role',
      'a.action',
      'a.outcome',
      'a.ip',
      'a.patient_ids',
      'u.first_name',
      'u.last_name',
      'u.physician_name',
      'd.id as device_id',
      'd.device_id as device_serial',
    ])
    .orderBy('a.seq', 'desc')
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .execute();
  return { rows, total: Number(total) };
}

/** The names ("name second name") of the clinic's patients among `ids`; an erased patient has none. */
export async function patientNames(db: Queryable, clinicId: string, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const patients = await db.selectFrom('patients').select(['id', 'name', 'second_name']).where('clinic_id', '=', clinicId).where('id', 'in', ids).execute();
  return new Map(patients.map((p) => [p.id, `${p.name} ${p.second_name}`.trim()]));
}
