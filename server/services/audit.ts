// The audit trail: who did what to which record, when and from where. Never passwords or tokens:
// callers pass ids and outcomes only.
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/tables';

export interface AuditEntry {
  action: string;
  outcome: 'success' | 'failure' | 'denied';
  clinicId?: string | null;
  actorId?: string | null;
  actorRole?: string | null;
  targetType?: string;
  targetId?: string;
  detail?: Record<string, unknown>;
}

export async function audit(db: Database, request: FastifyRequest | null, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      clinic_id: entry.clinicId ?? request?.auth?.clinicId ?? null,
      actor_id: entry.actorId ?? request?.auth?.userId ?? null,
      actor_role: entry.actorRole ?? request?.auth?.role ?? null,
      action: entry.action,
      outcome: entry.outcome,
      target_type: entry.targetType ?? null,
      target_id: entry.targetId ?? null,
      ip: request?.ip ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
    })
    .execute();
}
