// Staff users as the IT admin screens see them: row → contract mapping, the list query, the status
// transitions of bulk actions, and what ending access means (sessions ended, open links revoked).
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Role } from '../../generated/model/role';
import type { User } from '../../generated/model/user';
import type { UserBulkAction } from '../../generated/model/userBulkAction';
import type { UserSort } from '../../generated/model/userSort';
import type { UserStatus } from '../../generated/model/userStatus';
import type { InviteStatus } from '../../generated/model/inviteStatus';
import type { PasswordStrength } from '../../generated/model/passwordStrength';
import { containsPattern } from '../db/listing';
import type { Database, UserRow } from '../db/tables';
import { periodMs } from '../security/periods';
import { DEFAULT_POLICY, nextPasswordChange, type UserPolicy } from '../security/policy';

/** Singular spellings of the login hints → canonical roles (seed-spec §3). */
export const ROLE_ALIASES: Record<string, Role> = {
  clinic_physician: 'clinic_physicians',
  nurse: 'clinic_nurses',
  clinic_it_admin: 'clinic_it_admins',
};

export const canonicalRole = (role: string): string => ROLE_ALIASES[role] ?? role;

/** Statuses left out of the staff list unless asked for with `status`. */
export const HIDDEN_STATUSES = ['archived', 'archiving', 'deleting'];

/** A user row with the expiry of its open invite link (null when none is open). */
export type StaffRow = UserRow & { invite_expires_at: Date | string | null };

const iso = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();

export const avatarPath = (userId: string, key: string | null): string | null =>
  key ? `/api/users/${userId}/avatar` : null;

/** The clinic's password policy per user, loaded once for a whole list (no query per row). */
export async function policiesOf(db: Database, clinicId: string): Promise<(userId: string) => UserPolicy> {
  const settings = await db.selectFrom('security_settings').selectAll().where('clinic_id', '=', clinicId).executeTakeFirst();
  if (!settings) return () => DEFAULT_POLICY;
  const idleMs = periodMs(settings.logout_time_interval, settings.logout_time_period);
  const rules: UserPolicy = {
    strength: settings.password_strength as UserPolicy['strength'],
    renewalMs: periodMs(settings.password_renewal_interval, settings.password_renewal_period),
    idleMs,
  };
  if (settings.user_scope === 'all') return () => rules;
  const listed = new Set(
    (await db.selectFrom('security_settings_users').select('user_id').where('clinic_id', '=', clinicId).execute()).map(
      (r) => r.user_id,
    ),
  );
  return (userId) => (listed.has(userId) ? rules : { ...DEFAULT_POLICY, idleMs });
}

export function toUser(row: StaffRow, policy: UserPolicy): User {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    role: row.role as Role,
    status: row.status as UserStatus,
    inviteStatus: row.invite_status as InviteStatus,
    passwordType: policy.strength as PasswordStrength,
    physicianName: row.physician_name,
    avatar: avatarPath(row.id, row.avatar_path),
    lastPasswordChange: iso(row.password_changed_at),
    nextPasswordChange: iso(nextPasswordChange(row.password_changed_at, policy)),
    inviteExpiresAt: iso(row.invite_expires_at),
    lastSignInAt: iso(row.last_sign_in_at),
    createdAt: iso(row.created_at) as string,
  };
}

/** Users of the clinic with the expiry of their open invite link. */
export function staffQuery(db: Database, clinicId: string) {
  return db
    .selectFrom('users as u')
    .selectAll('u')
    .select((eb) =>
      eb
        .selectFrom('user_tokens as t')
        .select((t) => t.fn.max('t.expires_at').as('m'))
        .whereRef('t.user_id', '=', 'u.id')
        .where('t.kind', '=', 'invite')
        .where('t.used_at', 'is', null)
        .where('t.revoked_at', 'is', null)
        .as('invite_expires_at'),
    )
    .where('u.clinic_id', '=', clinicId);
}

export async function findStaff(db: Database, clinicId: string, id: string): Promise<StaffRow | undefined> {
  return (await staffQuery(db, clinicId).where('u.id', '=', id).executeTakeFirst()) as StaffRow | undefined;
}

export async function userById(db: Database, clinicId: string, id: string): Promise<User | undefined> {
  const row = await findStaff(db, clinicId, id);
  if (!row) return undefined;
  return toUser(row, (await policiesOf(db, clinicId))(row.id));
}

export interface StaffListQuery {
  clinicId: string;
  page: number;
  perPage: number;
  search?: string;
  role?: string[];
  status?: string;
  inviteStatus?: string;
  sort?: UserSort;
}

/** `%` and `_` in a search are literal characters, not wildcards. */

export async function listStaff(db: Database, q: StaffListQuery): Promise<{ rows: StaffRow[]; total: number }> {
  let query = staffQuery(db, q.clinicId);
  const search = q.search?.trim();
  if (search) {
    const pattern = containsPattern(search);
    query = query.where((eb) =>
      eb.or([
        eb('u.first_name', 'ilike', pattern),
        eb('u.last_name', 'ilike', pattern),
        eb('u.physician_name', 'ilike', pattern),
        eb('u.email', 'ilike', pattern),
        eb(sql<string>`u.first_name || ' ' || u.last_name`, 'ilike', pattern),
        eb(sql<string>`u.last_name || ' ' || u.first_name`, 'ilike', pattern),
      ]),
    );
  }
  if (q.role?.length) query = query.where('u.role', 'in', q.role.map(canonicalRole));
  query = q.status ? query.where('u.status', '=', q.status) : query.where('u.status', 'not in', HIDDEN_STATUSES);
  if (q.inviteStatus) query = query.where('u.invite_status', '=', q.inviteStatus);

  const { total } = await db
    .selectFrom(query.as('filtered'))
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();

  const sort = q.sort ?? 'name';
  const direction = sort.startsWith('-') ? 'desc' : 'asc';
  const key = sort.replace(/^-/, '');
  const columns: Record<string, Expression<unknown>[]> = {
    name: [sql`lower(u.last_name)`, sql`lower(u.first_name)`],
    email: [sql`lower(u.email)`],
    role: [sql`u.role`, sql`lower(u.last_name)`, sql`lower(u.first_name)`],
    status: [sql`u.status`, sql`lower(u.last_name)`, sql`lower(u.first_name)`],
    createdAt: [sql`u.created_at`],
  };
  // The sort key decides the direction; the names and the id only break ties, always ascending, so
  // that paging is stable.
  const [first, ...rest] = columns[key] ?? columns.name;
  let ordered = query.orderBy(first, direction);
  for (const column of rest) ordered = ordered.orderBy(column, 'asc');
  const rows = await ordered
    .orderBy('u.id', 'asc')
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage)
    .execute();
  return { rows: rows as StaffRow[], total: Number(total) };
}

// Statuses a user lives in (as opposed to archived/deleting, which remember one of these).
const LIVE_STATUSES = ['active', 'deactivated', 'pending', 'invite_expired', 'creation_in_progress'];

export interface Transition {
  status: string;
  invite_status: string;
  previous_status: string | null;
}

/**
 * The status a user comes back to from archived or deleting: the one before, except that an invite that
 * was open is expired by then (its link was revoked), and a user of unknown history who had accepted the
 * invite comes back deactivated (an IT admin activates them explicitly).
 */
function comeBack(user: Pick<UserRow, 'previous_status' | 'invite_status'>): Transition {
  const before = user.previous_status && LIVE_STATUSES.includes(user.previous_status) ? user.previous_status : null;
  if (user.invite_status === 'creation_in_progress' || before === 'creation_in_progress') {
    return { status: 'creation_in_progress', invite_status: 'creation_in_progress', previous_status: null };
  }
  if (user.invite_status !== 'accepted' || before === 'pending' || before === 'invite_expired') {
    return { status: 'invite_expired', invite_status: 'invite_expired', previous_status: null };
  }
  return { status: before === 'active' ? 'active' : 'deactivated', invite_status: 'accepted', previous_status: null };
}

/** The status a user leaves for archived or deleting; the live status before is remembered. */
function goAway(user: Pick<UserRow, 'status' | 'previous_status' | 'invite_status'>, status: string): Transition {
  const live = LIVE_STATUSES.includes(user.status) ? user.status : user.previous_status;
  const inviteStatus = user.invite_status === 'pending' ? 'invite_expired' : user.invite_status;
  return { status, invite_status: inviteStatus, previous_status: live };
}

export type StaffAction = UserBulkAction | 'delete';

/**
 * The new state of a user under an action, or null when the action does not fit the user's status.
 * `send_invite` returns the user's current state: the invite itself changes it (issueInvite).
 */
export function transition(action: StaffAction, user: Pick<UserRow, 'status' | 'previous_status' | 'invite_status'>): Transition | null {
  const keep = { status: user.status, invite_status: user.invite_status, previous_status: user.previous_status };
  switch (action) {
    case 'activate':
      return user.status === 'deactivated' ? { ...keep, status: 'active' } : null;
    case 'deactivate':
      return user.status === 'active' ? { ...keep, status: 'deactivated' } : null;
    case 'archive':
      return ['archived', 'archiving', 'deleting'].includes(user.status) ? null : goAway(user, 'archived');
    case 'unarchive':
      return user.status === 'archived' || user.status === 'archiving' ? comeBack(user) : null;
    case 'restore':
      return ['deleting', 'archived', 'archiving'].includes(user.status) ? comeBack(user) : null;
    case 'send_invite':
      return ['creation_in_progress', 'pending', 'invite_expired'].includes(user.status) ? keep : null;
    case 'delete':
      // Deleting twice changes nothing (and keeps what the user comes back to).
      return user.status === 'deleting' ? keep : goAway(user, 'deleting');
  }
}

/** Actions after which the user can no longer sign in: sessions end, open links are revoked. */
export const ENDS_ACCESS: Partial<Record<StaffAction, string>> = {
  deactivate: 'deactivated',
  archive: 'archived',
  delete: 'deleted',
};

/** A unique-index violation (an e-mail address taken by a concurrent request). */
export const isUniqueViolation = (error: unknown): boolean =>
  !!error && typeof error === 'object' && (error as { code?: unknown }).code === '23505';

/** Whether an address already belongs to an account (any clinic: the address is the sign-in name). */
export async function emailTaken(db: Database, email: string, exceptUserId?: string): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where(sql<SqlBool>`lower(email) = ${email.toLowerCase()}`);
  if (exceptUserId) query = query.where('id', '!=', exceptUserId);
  return !!(await query.executeTakeFirst());
}
