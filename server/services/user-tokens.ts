// The links mailed to an account (invite, reset, e-mail confirmation), as the services that use them share them.
// Their queries are server/repositories/user-tokens.ts.
import type { Origin } from '../actor';
import type { Database } from '../db/tables';
import { audit } from './audit';
import type { AuditAction } from './audit-actions';

/**
 * Records the use of a link as its owner's own act (whoever holds the link proved to be them), from the origin
 * of the call.
 */
export const auditLinkUse = (
  db: Database,
  origin: Origin,
  link: { userId: string; clinic_id: string; role: string },
  action: AuditAction,
  detail?: Record<string, unknown>,
) =>
  audit(db, origin, {
    action,
    outcome: 'success',
    clinicId: link.clinic_id,
    actorId: link.userId,
    actorRole: link.role,
    targetType: 'user',
    targetId: link.userId,
    ...(detail ? { detail } : {}),
  });
