// The queries of sign-in sessions (auth_sessions: bearer tokens, stored only as hashes). Each takes the database
// or a transaction; what a session may do and when it ends is decided in server/services/sessions.ts,
// server/services/sign-in.ts and server/security/authenticate.ts.
import type { Queryable } from '../db/tables';

/** Why a session ended (auth_sessions.ended_reason): logout, idle, password_changed, password_reset, email_changed, … */
export type SessionEndReason = string;

export interface NewSessionRow {
  userId: string;
  tokenHash: string;
  remember: boolean;
  ip: string | null;
  userAgent: string | null;
  now: Date;
  expiresAt: Date;
  secondFactorSetup: boolean;
}

/** Stores a new session; its id. */
export async function insertSession(db: Queryable, session: NewSessionRow): Promise<string> {
  const row = await db
    .insertInto('auth_sessions')
    .values({
      user_id: session.userId,
      token_hash: session.tokenHash,
      remember: session.remember,
      ip: session.ip,
      user_agent: session.userAgent,
      created_at: session.now,
      last_seen_at: session.now,
      expires_at: session.expiresAt,
      second_factor_setup: session.secondFactorSetup,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** When the session signed in; undefined for an unknown one. */
export async function sessionCreatedAt(db: Queryable, sessionId: string): Promise<Date | undefined> {
  const row = await db.selectFrom('auth_sessions').select('created_at').where('id', '=', sessionId).executeTakeFirst();
  return row?.created_at;
}

/** The open session of a token hash, with its user and the clinic's security settings (left joined: null when the clinic has none). */
export function openSessionByToken(db: Queryable, tokenHash: string) {
  return db
    .selectFrom('auth_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('security_settings as ss', 'ss.clinic_id', 'u.clinic_id')
    .leftJoin('security_settings_users as su', (join) => join.onRef('su.clinic_id', '=', 'u.clinic_id').onRef('su.user_id', '=', 'u.id'))
    .select([
      's.id as sessionId',
      's.last_seen_at',
      's.expires_at',
      's.second_factor_setup',
      'u.id as userId',
      'u.clinic_id',
      'u.role',
      'u.status',
      'u.must_change_password',
      'u.password_changed_at',
      'u.totp_enabled_at',
      'ss.clinic_id as settings_clinic_id',
      'ss.user_scope',
      'ss.password_strength',
      'ss.password_renewal_interval',
      'ss.password_renewal_period',
      'ss.logout_time_interval',
      'ss.logout_time_period',
      'ss.renewal_changed_at',
      'ss.two_factor_roles',
      'ss.remember_device_days',
      'su.user_id as listed_user_id',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.ended_at', 'is', null)
    .executeTakeFirst();
}

/** Records that the session was seen now. */
export async function touchSession(db: Queryable, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('auth_sessions').set({ last_seen_at: now }).where('id', '=', sessionId).execute();
}

/** Ends one open session (logout, idle). */
export async function endSession(db: Queryable, sessionId: string, reason: SessionEndReason, now: Date): Promise<void> {
  await db
    .updateTable('auth_sessions')
    .set({ ended_at: now, ended_reason: reason })
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .execute();
}

/** Ends every open session of these users, optionally but one (the caller's own). Returns how many. */
export async function endUserSessions(
  db: Queryable,
  userIds: string | string[],
  reason: SessionEndReason,
  now: Date,
  options: { except?: string } = {},
): Promise<number> {
  const ids = Array.isArray(userIds) ? userIds : [userIds];
  if (!ids.length) return 0;
  let query = db
    .updateTable('auth_sessions')
    .set({ ended_at: now, ended_reason: reason })
    .where('user_id', 'in', ids)
    .where('ended_at', 'is', null);
  if (options.except) query = query.where('id', '!=', options.except);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}

/** A user id no account has (the same query runs whether an account exists or not). */
const NO_USER = '00000000-0000-0000-0000-000000000000';

/** Has the account (null: none) signed in from this address since `since`? */
export async function signedInFromSince(db: Queryable, userId: string | null, ip: string, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom('auth_sessions')
    .select('id')
    .where('user_id', '=', userId ?? NO_USER)
    .where('ip', '=', ip)
    .where('created_at', '>', since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
