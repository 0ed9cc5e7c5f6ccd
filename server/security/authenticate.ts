// The bearer security handler and the role check that follows it (x-roles of the contract).
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { forbidden, HttpError, unauthorized } from '../http/errors';
import { audit } from '../services/audit';
import { nextPasswordChange, policyOf } from './policy';
import { hashToken } from './tokens';

export interface AuthContext {
  userId: string;
  clinicId: string;
  role: string;
  sessionId: string;
  /** Set when the user must choose a new password before anything else. */
  passwordChangeRequired: 'forced' | 'expired' | null;
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

export async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const token = bearerToken(request);
  if (!token) throw unauthorized();
  const now = ctx.clock.now();
  // One query for the session, its user and the clinic's security policy: it runs on every request.
  const session = await ctx.db
    .selectFrom('auth_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('security_settings as ss', 'ss.clinic_id', 'u.clinic_id')
    .leftJoin('security_settings_users as su', (join) =>
      join.onRef('su.clinic_id', '=', 'u.clinic_id').onRef('su.user_id', '=', 'u.id'),
    )
    .select([
      's.id as sessionId',
      's.last_seen_at',
      's.expires_at',
      'u.id as userId',
      'u.clinic_id',
      'u.role',
      'u.status',
      'u.must_change_password',
      'u.password_changed_at',
      'ss.clinic_id as settings_clinic_id',
      'ss.user_scope',
      'ss.password_strength',
      'ss.password_renewal_interval',
      'ss.password_renewal_period',
      'ss.logout_time_interval',
      'ss.logout_time_period',
      'su.user_id as listed_user_id',
    ])
    .where('s.token_hash', '=', hashToken(token))
    .where('s.ended_at', 'is', null)
    .executeTakeFirst();
  if (!session || session.expires_at <= now || session.status !== 'active') throw unauthorized();

  const policy = policyOf(
    // The columns are null only when the clinic has no settings row (left join).
    session.settings_clinic_id === null
      ? null
      : {
          user_scope: session.user_scope!,
          password_strength: session.password_strength!,
          password_renewal_interval: session.password_renewal_interval,
          password_renewal_period: session.password_renewal_period!,
          logout_time_interval: session.logout_time_interval,
          logout_time_period: session.logout_time_period!,
        },
    session.listed_user_id !== null,
  );
  if (policy.idleMs !== null && now.getTime() - session.last_seen_at.getTime() > policy.idleMs) {
    await ctx.db
      .updateTable('auth_sessions')
      .set({ ended_at: now, ended_reason: 'idle' })
      .where('id', '=', session.sessionId)
      .execute();
    throw unauthorized('auth.idle_timeout', 'auth.idle_timeout');
  }
  if (now.getTime() - session.last_seen_at.getTime() > TOUCH_EVERY_MS) {
    await ctx.db.updateTable('auth_sessions').set({ last_seen_at: now }).where('id', '=', session.sessionId).execute();
  }
  const renewBy = nextPasswordChange(session.password_changed_at, policy);
  request.auth = {
    userId: session.userId,
    clinicId: session.clinic_id,
    role: session.role,
    sessionId: session.sessionId,
    passwordChangeRequired: session.must_change_password ? 'forced' : renewBy && renewBy <= now ? 'expired' : null,
  };
}

// What a user who must change the password may still do.
const WHILE_PASSWORD_CHANGE_REQUIRED = new Set(['getProfile', 'changePassword', 'logout']);

/** Runs after authentication: the caller's role must be in the operation's x-roles. */
export async function authorize(ctx: AppContext, request: FastifyRequest, operationId: string, roles: string[]) {
  if (roles.includes('public')) return;
  const auth = request.auth;
  if (!auth) throw unauthorized();
  if (!roles.includes(auth.role)) {
    await audit(ctx.db, request, { action: operationId, outcome: 'denied', detail: { reason: 'role' } });
    throw forbidden();
  }
  if (auth.passwordChangeRequired && !WHILE_PASSWORD_CHANGE_REQUIRED.has(operationId)) {
    await audit(ctx.db, request, { action: operationId, outcome: 'denied', detail: { reason: 'password_change' } });
    throw new HttpError(403, 'auth.password_change_required', 'auth.password_change_required');
  }
}
