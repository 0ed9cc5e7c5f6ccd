// Which sign-in session had a realtime socket's subscriptions signed (server/realtime/endpoint.ts closes the
// socket when that session ends), the sockets whose session has ended, and the bindings of closed sockets.
import type { Queryable } from '../db/tables';

/** Binds a socket to a session; a socket already bound stays bound to its first session. */
export async function bindSocket(db: Queryable, socketId: string, sessionId: string): Promise<void> {
  await db.insertInto('realtime_bindings').values({ socket_id: socketId, session_id: sessionId }).onConflict((oc) => oc.doNothing()).execute();
}

/** Of these sockets, those bound to a session that has ended or expired by `now`. */
export async function socketsOfEndedSessions(db: Queryable, socketIds: readonly string[], now: Date): Promise<string[]> {
  if (socketIds.length === 0) return [];
  const rows = await db
    .selectFrom('realtime_bindings as b')
    .innerJoin('auth_sessions as s', 's.id', 'b.session_id')
    .select('b.socket_id')
    .distinct()
    .where('b.socket_id', 'in', socketIds)
    .where((eb) => eb.or([eb('s.ended_at', 'is not', null), eb('s.expires_at', '<=', now)]))
    .execute();
  return rows.map((row) => row.socket_id);
}

/** Forgets the bindings of closed sockets. */
export async function unbindSockets(db: Queryable, socketIds: readonly string[]): Promise<void> {
  if (socketIds.length === 0) return;
  await db.deleteFrom('realtime_bindings').where('socket_id', 'in', socketIds).execute();
}
