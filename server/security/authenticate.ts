// The bearer security handler and the role check that follows it (x-roles of the contract).
import type { FastifyRequest } from 'fastify';
import type { OperationId } from '../../generated/operation-ids';
import type { AppContext } from '../context';
import { VersionedCache, versionStamp } from '../db/freshness';
import type { Database } from '../db/tables';
import { forbidden, HttpError, unauthorized } from '../http/errors';
import { sourceOf } from '../http/actor';
import { endSession, openSessionByToken, touchSession } from '../repositories/sessions';
import { audit } from '../services/audit';
import type { SessionState } from '../services/sessions';
import { passwordChangeReason, policyOf, type UserPolicy } from './policy';
import { hashToken } from './tokens';

/** The signed-in caller of a request, and what the session must do before anything else. */
export interface AuthContext extends SessionState {
  userId: string;
  clinicId: string;
  role: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

// last_seen_at is written at most this often, so reads do not all turn into writes.
const TOUCH_EVERY_MS = 30_000;

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S{16,512})$/i.exec(header) : null;
  return match ? match[1] : null;
}

/** What the sign-in check needs of a session, its user and the clinic's policy. */
interface SessionFacts {
  sessionId: string;
  lastSeenAt: Date;
  expiresAt: Date;
  userId: string;
  clinicId: string;
  role: string;
  status: string;
  mustChangePassword: boolean;
  passwordChangedAt: Date | null;
  secondFactorSetup: boolean;
  twoFactorEnabled: boolean;
  policy: UserPolicy;
}

// Open sessions by token hash, per database, for as long as no session, user or policy changed (migration
// 0005): most requests make no query to know their caller. Unknown tokens are never kept.
const SESSIONS_KEPT = 10_000;
const sessionCaches = new WeakMap<Database, VersionedCache<SessionFacts | null>>();

function sessionCacheOf(db: Database): VersionedCache<SessionFacts | null> {
  let cache = sessionCaches.get(db);
  if (!cache) sessionCaches.set(db, (cache = new VersionedCache(SESSIONS_KEPT)));
  return cache;
}

/** One query for the session, its user and the clinic's security policy. */
async function loadSession(db: Database, tokenHash: string): Promise<SessionFacts | null> {
  const row = await openSessionByToken(db, tokenHash);
  if (!row) return null;
  const policy = policyOf(
    // The columns are null only when the clinic has no settings row (left join).
    row.settings_clinic_id === null
      ? null
      : {
          user_scope: row.user_scope!,
          password_strength: row.password_strength!,
          password_renewal_interval: row.password_renewal_interval,
          password_renewal_period: row.password_renewal_period!,
          logout_time_interval: row.logout_time_interval,
          logout_time_period: row.logout_time_period!,
          renewal_changed_at: row.renewal_changed_at,
          two_factor_roles: row.two_factor_roles!,
          remember_device_days: row.remember_device_days!,
        },
    row.listed_user_id !== null,
  );
  return {
    sessionId: row.sessionId,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    userId: row.userId,
    clinicId: row.clinic_id,
    role: row.role,
    status: row.status,
    mustChangePassword: row.must_change_password,
    passwordChangedAt: row.password_changed_at,
    secondFactorSetup: row.second_factor_setup,
    twoFactorEnabled: row.totp_enabled_at !== null,
    policy,
  };
}

const idleFor = (session: SessionFacts, now: Date) =>
  session.policy.idleMs !== null && now.getTime() - session.lastSeenAt.getTime() > session.policy.idleMs;

export async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const token = bearerToken(request);
  if (!token) throw unauthorized();
  const now = ctx.clock.now();
  const tokenHash = hashToken(token);
  const cache = sessionCacheOf(ctx.db);
  // The caller's clinic list version is read with the sessions' in one query (PostgreSQL); the patient
  // list finds it there (server/services/patients.ts).
  const known = cache.peek(tokenHash);
  await versionStamp(ctx.db, known ? ['auth', `patients:${known.clinicId}`] : ['auth'], request);
  const stamp = await versionStamp(ctx.db, ['auth'], request);
  let session = await cache.get(tokenHash, stamp, () => loadSession(ctx.db, tokenHash));
  if (!session) cache.delete(tokenHash);
  if (!session || session.expiresAt <= now || session.status !== 'active') throw unauthorized();

  if (idleFor(session, now)) {
    // Another process may have seen the session since this one did: the database decides.
    session = await loadSession(ctx.db, tokenHash);
    if (!session) {
      cache.delete(tokenHash);
      throw unauthorized();
    }
    if (idleFor(session, now)) {
      cache.delete(tokenHash);
      await endSession(ctx.db, session.sessionId, 'idle', now);
      throw unauthorized('auth.idle_timeout', 'auth.idle_timeout');
    }
    if (stamp !== null) cache.set(tokenHash, stamp, session);
  }
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await touchSession(ctx.db, session.sessionId, now);
    session.lastSeenAt = now;
  }
  request.auth = {
    userId: session.userId,
    clinicId: session.clinicId,
    role: session.role,
    sessionId: session.sessionId,
    passwordChangeRequired: passwordChangeReason(session.mustChangePassword, session.passwordChangedAt, session.policy, now),
    // From the sign-in on: sessions open when the clinic began to require it go on until they end.
    twoFactorEnrolmentRequired: session.secondFactorSetup && !session.twoFactorEnabled,
  };
}

// What a user who must change the password may still do: read the profile, change the password, log out, and
// keep the language chosen at sign-in (updateProfile refuses every other field then: server/handlers/profile.ts).
const WHILE_PASSWORD_CHANGE_REQUIRED = new Set(['getProfile', 'changePassword', 'logout', 'updateProfile']);
// What a user whose clinic requires a second factor they have not set up may do: the same, but set it up instead
// of changing the password (a required password change comes first).
const WHILE_TWO_FACTOR_ENROLMENT_REQUIRED = new Set(['getProfile', 'logout', 'updateProfile', 'startTwoFactorEnrolment', 'confirmTwoFactor']);

/** Runs after authentication: the caller's role must be in the operation's x-roles. */
export async function authorize(ctx: AppContext, request: FastifyRequest, operationId: OperationId, roles: string[]) {
  if (roles.includes('public')) return;
  // A device (server/security/device-auth.ts) calls the operations of role `device` and no other.
  if (request.device) {
    if (roles.includes('device')) return;
    throw forbidden();
  }
  const auth = request.auth;
  if (!auth) throw unauthorized();
  if (!roles.includes(auth.role)) {
    await audit(ctx.db, sourceOf(request), { action: operationId, outcome: 'denied', detail: { reason: 'role' } });
    throw forbidden();
  }
  if (auth.passwordChangeRequired && !WHILE_PASSWORD_CHANGE_REQUIRED.has(operationId)) {
    await audit(ctx.db, sourceOf(request), { action: operationId, outcome: 'denied', detail: { reason: 'password_change' } });
    throw new HttpError(403, 'auth.password_change_required', 'auth.password_change_required');
  }
  if (!auth.passwordChangeRequired && auth.twoFactorEnrolmentRequired && !WHILE_TWO_FACTOR_ENROLMENT_REQUIRED.has(operationId)) {
    await audit(ctx.db, sourceOf(request), { action: operationId, outcome: 'denied', detail: { reason: 'two_factor_enrolment' } });
    throw new HttpError(403, 'auth.two_factor_required', 'auth.two_factor_required');
  }
}
