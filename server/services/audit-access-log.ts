// The access log as an IT admin reads it (listAccessLog): the clinic's audit entries, newest first, filtered
// by patient (the GIN index on patient_ids), user, action and time, with the user and the patient named as
// they are now. An erased patient has no name any more: the log keeps the id only. Reading it names patients
// too, so it is itself recorded.
import type { AccessLogEntry } from '../../generated/model/accessLogEntry';
import type { ListAccessLogParams } from '../../generated/model/listAccessLogParams';
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import { pageMeta } from '../db/listing';
import { invalid } from '../http/errors';
import { accessLogPage, patientNames } from '../repositories/access-log';
import { auditRead } from './audit-reads';
import { displayName } from './people';

export async function listAccessLog(ctx: AppContext, actor: Actor, q: ListAccessLogParams) {
  const { page = 1, perPage = 20, actorId, action, from, to } = q;
  if (from && to && Date.parse(to) <= Date.parse(from)) throw invalid({ to: ['access_log.range_reversed'] });
  const patientId = q.patientId?.toLowerCase();
  const { rows, total } = await accessLogPage(ctx.db, actor.clinicId, { patientId, actorId, action, from, to }, { page, perPage });

  const named = (ids: string[]) => patientId ?? (ids.length === 1 ? ids[0]! : null);
  const wanted = [...new Set(rows.map((row) => named(row.patient_ids)).filter((id): id is string => id !== null))];
  const names = await patientNames(ctx.db, actor.clinicId, wanted);

  const data: AccessLogEntry[] = rows.map((row) => {
    const shown = named(row.patient_ids);
    return {
      id: String(row.id),
      seq: Number(row.seq),
      at: new Date(row.at).toISOString(),
      actor: row.actor_id
        ? {
            id: row.actor_id,
            name: row.first_name !== null ? displayName({ physician_name: row.physician_name, first_name: row.first_name, last_name: row.last_name ?? '' }) : null,
            role: row.actor_role,
          }
        : null,
      device: row.device_id !== null && row.device_serial !== null ? { id: row.device_id, deviceId: row.device_serial } : null,
      action: row.action,
      outcome: row.outcome as AccessLogEntry['outcome'],
      ip: row.ip,
      patient: shown ? { id: shown, name: names.get(shown) ?? null } : null,
      patientCount: row.patient_ids.length,
    };
  });
  await auditRead(ctx.db, actor, {
    action: 'access_log.read',
    outcome: 'success',
    targetType: 'access_log',
    patientIds: wanted,
    detail: { page, count: data.length, ...(q.patientId && { patientId: q.patientId }), ...(actorId && { actorId }), ...(action && { filterAction: action }) },
  });
  return { data, meta: pageMeta({ page, perPage }, total) };
}
