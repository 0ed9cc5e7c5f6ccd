// Calling services without HTTP (the unit tests of server/services): the Actor a handler would pass, what a call
// refuses with, and what it wrote to the audit trail.
import { expect } from 'vitest';
import type { Actor } from '../../server/actor';
import type { Database } from '../../server/db/tables';
import { HttpError } from '../../server/http/errors';
import { createClinic } from './fixtures';
import { startServer, testClock, type TestServer } from './helper';

/** A migrated database behind a server for calling services: on the test clock, without the background worker, with one clinic. */
export async function serverWithClinic(): Promise<{ server: TestServer; clinicId: string }> {
  const server = await startServer({ clock: testClock(), jobs: false });
  return { server, clinicId: await createClinic(server.db) };
}

/** The caller as actorOf makes it of a signed-in request (no address, English). */
export const actorFor = (user: { id: string }, clinicId: string, role: string, sessionId?: string): Actor => ({
  userId: user.id,
  clinicId,
  role,
  ...(sessionId ? { sessionId } : {}),
  ip: null,
  lang: 'en',
});

/** The refusal of `call`: status, code, message key, field errors and extra members (fails when it resolves or throws anything else). */
export async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HttpError);
  const { statusCode, code, messageKey, fieldErrors, extra } = error as HttpError;
  return { status: statusCode, code, key: messageKey, fields: fieldErrors, extra };
}

/** The audit entries of an action about a target, oldest first, their detail as an object. */
export async function auditEntries(db: Database, action: string, targetId: string) {
  const rows = await db
    .selectFrom('audit_log')
    .select(['actor_id', 'actor_role', 'clinic_id', 'outcome', 'ip', 'detail'])
    .where('action', '=', action)
    .where('target_id', '=', targetId)
    .orderBy('seq')
    .execute();
  // Some drivers give the JSON column as text.
  return rows.map((row) => ({ ...row, detail: (typeof row.detail === 'string' ? JSON.parse(row.detail) : row.detail) as Record<string, unknown> }));
}
