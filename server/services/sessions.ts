// Sign-in sessions (bearer tokens, stored only as hashes) and the signed-in user's Profile as the
// contract describes it. Ending sessions is shared with the users area (deactivation, deletion, e-mail
// change) through endUserSessions.
import type { Profile } from '../../generated/model/profile';
import type { Role } from '../../generated/model/role';
import type { AppContext } from '../context';
import type { Database, UserRow } from '../db/tables';
import { invalid, notFound } from '../http/errors';
import type { MessageKey } from '../i18n';
import { checkPassword, type PasswordInput } from '../../src/domain/passwords/password-rules';
import { nextPasswordChange, policyFor, type UserPolicy } from '../security/policy';
import { hashToken, newToken } from '../security/tokens';
import { notify } from './notifications';
import { pendingEmailOf } from './user-tokens';

const HOUR_MS = 60 * 60 * 1000;
/** Token lifetime with "remember me" (persistent storage) and without (session storage). */
export const REMEMBERED_SESSION_MS = 30 * 24 * HOUR_MS;
export const SHORT_SESSION_MS = 12 * HOUR_MS;

/** Why a session ended (auth_sessions.ended_reason): logout, idle, password_changed, password_reset, email_changed, … */
export type SessionEndReason = string;

export interface NewSession {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

export async function createSession(
  ctx: AppContext,
  user: { id: string },
  options: { remember: boolean; ip?: string | null; userAgent?: string | null },
): Promise<NewSession> {
  const now = ctx.clock.now();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + (options.remember ? REMEMBERED_SESSION_MS : SHORT_SESSION_MS));
  const row = await ctx.db
    .insertInto('auth_sessions')
    .values({
      user_id: user.id,
      token_hash: hashToken(token),
      remember: options.remember,
      ip: options.ip ?? null,
      user_agent: options.userAgent ? options.userAgent.slice(0, 300) : null,
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, sessionId: row.id, expiresAt };
}

/** Ends one session (logout). */
export async function endSession(db: Database, sessionId: string, reason: SessionEndReason, now: Date): Promise<void> {
  await db
    .updateTable('auth_sessions')
    .set({ ended_at: now, ended_reason: reason })
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .execute();
}

/** Ends every open session of these users, optionally but one (the caller's own). Returns how many. */
export async function endUserSessions(
  db: Database,
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

// ---- Profile ---------------------------------------------------------------------------------------

export const avatarPath = (user: { id: string; avatar_path: string | null }): string | null =>
  user.avatar_path ? `/api/users/${user.id}/avatar` : null;

/** Why the user must set a new password first, or null. */
export function passwordChangeReason(
  user: Pick<UserRow, 'must_change_password' | 'password_changed_at'>,
  policy: UserPolicy,
  now: Date,
): 'forced' | 'expired' | null {
  if (user.must_change_password) return 'forced';
  const renewBy = nextPasswordChange(user.password_changed_at, policy);
  return renewBy && renewBy <= now ? 'expired' : null;
}

/** Maps a user row, its clinic's name and its policy to the contract's Profile. */
export function toProfile(user: UserRow, clinicName: string, policy: UserPolicy, now: Date): Profile {
  const next = nextPasswordChange(user.password_changed_at, policy);
  return {
    id: user.id,
    lang: user.lang === 'de' ? 'de' : 'en',
    role: user.role as Role,
    avatar: avatarPath(user),
    physicianName: user.physician_name,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    clinicId: user.clinic_id,
    clinicName,
    passwordStrength: policy.strength,
    passwordChangeRequired: passwordChangeReason(user, policy, now),
    nextPasswordChange: next ? next.toISOString() : null,
    logoutAfterSeconds: policy.idleMs === null ? null : Math.max(60, Math.round(policy.idleMs / 1000)),
  };
}

/** The user row of a user of `clinicId` (404 when there is none). */
export async function clinicUser(db: Database, userId: string, clinicId: string): Promise<UserRow> {
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .where('clinic_id', '=', clinicId)
    .executeTakeFirst();
  if (!user) throw notFound();
  return user;
}

/** The Profile of a user of `clinicId` (404 when there is none). */
export async function loadProfile(ctx: AppContext, userId: string, clinicId: string): Promise<Profile> {
  const user = await clinicUser(ctx.db, userId, clinicId);
  const clinic = await ctx.db.selectFrom('clinics').select('name').where('id', '=', clinicId).executeTakeFirstOrThrow();
  const policy = await policyFor(ctx.db, clinicId, userId);
  const now = ctx.clock.now();
  return { ...toProfile(user, clinic.name, policy, now), pendingEmail: await pendingEmailOf(ctx.db, userId, now) };
}

// ---- New passwords ---------------------------------------------------------------------------------

/** Throws the 422 envelope with field errors when a new password breaks the rules (src/domain/passwords/password-rules.ts). */
export function assertNewPassword(input: PasswordInput, extra: Record<string, MessageKey[]> = {}): void {
  const errors: Record<string, MessageKey[]> = { ...extra };
  for (const [field, keys] of Object.entries(checkPassword(input))) {
    if (keys?.length) errors[field] = [...(errors[field] ?? []), ...keys];
  }
  if (Object.keys(errors).length) throw invalid(errors);
}

const EXPIRY_WARNING_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Within the last 7 days before the password must be renewed, the user is told once (per password)
 * by a notification, and by e-mail if they chose so.
 */
export async function warnOfPasswordExpiry(
  ctx: AppContext,
  user: { id: string; clinic_id: string; password_changed_at: Date | null },
  policy: UserPolicy,
  now: Date,
): Promise<void> {
  const due = nextPasswordChange(user.password_changed_at, policy);
  if (!due || !user.password_changed_at || due <= now || due.getTime() - now.getTime() > EXPIRY_WARNING_MS) return;
  const warned = await ctx.db
    .selectFrom('notifications')
    .select('id')
    .where('user_id', '=', user.id)
    .where('event', '=', 'password_expiring')
    .where('created_at', '>=', user.password_changed_at)
    .executeTakeFirst();
  if (warned) return;
  await notify(ctx, {
    clinicId: user.clinic_id,
    to: { userIds: [user.id] },
    event: 'password_expiring',
    params: { date: due.toISOString().slice(0, 10) },
    link: '/profile-settings',
  });
}
