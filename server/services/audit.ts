// The audit trail: who did what to which record, when and from where. Never passwords or tokens:
// callers pass ids and outcomes only. Each entry names the patients it read or changed (the access log,
// docs/security.md); the table is append-only and hash-chained by its triggers (migration 0015).
import type { Actor, Origin } from '../actor';
import type { Queryable } from '../db/tables';
import type { AuditAction } from './audit-actions';
import { type AuditRow, insertAuditEntry } from '../repositories/access-log';

/** Who an entry is recorded for: a signed-in actor, or only the origin of a public call. */
export type AuditSource = Origin | Actor;

export const actorIn = (source: AuditSource | null): Partial<Actor> => (source && 'userId' in source ? source : {});

export interface AuditEntry {
  action: AuditAction;
  outcome: 'success' | 'failure' | 'denied';
  clinicId?: string | null;
  actorId?: string | null;
  actorRole?: string | null;
  targetType?: string;
  targetId?: string;
  /** The patients read or changed; by default the patient target, or a `patientId` in the detail. */
  patientIds?: readonly string[];
  detail?: Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The entry's patients: distinct, lower-case ids (anything that is not an id is no patient). */
export function patientIdsOf(entry: AuditEntry): string[] {
  const named =
    entry.patientIds ??
    (entry.targetType === 'patient' && entry.targetId ? [entry.targetId] : typeof entry.detail?.patientId === 'string' ? [entry.detail.patientId] : []);
  return [...new Set(named.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
}

/** The row an entry is stored as, for this source. */
export function auditRow(source: AuditSource | null, entry: AuditEntry): AuditRow {
  const actor = actorIn(source);
  return {
    clinic_id: entry.clinicId ?? actor.clinicId ?? null,
    actor_id: entry.actorId ?? actor.userId ?? null,
    actor_role: entry.actorRole ?? actor.role ?? null,
    action: entry.action,
    outcome: entry.outcome,
    target_type: entry.targetType ?? null,
    target_id: entry.targetId ?? null,
    ip: source?.ip ?? null,
    detail: entry.detail ?? {},
    patient_ids: patientIdsOf(entry),
  };
}

export async function audit(db: Queryable, source: AuditSource | null, entry: AuditEntry): Promise<void> {
  // A session's patient, when the caller did not name one: the session row says whose it is.
  const session = entry.targetType === 'treatment' && entry.targetId && UUID.test(entry.targetId) ? entry.targetId : undefined;
  await insertAuditEntry(db, auditRow(source, entry), session);
}
