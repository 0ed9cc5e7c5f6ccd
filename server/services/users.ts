// Staff users as the IT admin screens see them: row → contract mapping, the list query, the status
// transitions of bulk actions, and what ending access means (sessions ended, open links revoked).
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Role } from '../../generated/model/role';
import type { User } from '../../generated/model/user';
import type { UserSort } from '../../generated/model/userSort';
import type { UserStatus } from '../../generated/model/userStatus';
import type { InviteStatus } from '../../generated/model/inviteStatus';
import type { PasswordStrength } from '../../generated/model/passwordStrength';
import { containsPattern } from '../db/listing';
import { HttpError } from '../http/errors';
import { HIDDEN_STATUSES } from '../../src/domain/staff/lifecycle';
import type { Database, UserRow } from '../db/tables';
import { DEFAULT_POLICY, nextPasswordChange, policyOf, type UserPolicy } from '../security/policy';

/** Singular spellings of the login hints → canonical roles (seed-spec §3). */
export const ROLE_ALIASES: Record<string, Role> = {
  clinic_physician: 'clinic_physicians',
  nurse: 'clinic_nurses',
  clinic_it_admin: 'clinic_it_admins',
};

export const canonicalRole = (role: string): string => ROLE_ALIASES[role] ?? role;

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
  const rules = policyOf(settings, true);
  if (settings.user_scope === 'all') return () => rules;
  const others = policyOf(settings, false);
  const listed = new Set(
    (await db.selectFrom('security_settings_users').select('user_id').where('clinic_id', '=', clinicId).execute()).map(
      (r) => r.user_id,
    ),
  );
  return (userId) => (listed.has(userId) ? rules : others);
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

/** A unique-index violation (an e-mail address taken by a concurrent request). */
export const isUniqueViolation = (error: unknown): boolean =>
  !!error && typeof error === 'object' && (error as { code?: unknown }).code === '23505';

/** Whether an address already belongs to an account (any clinic: the address is the sign-in name). */
/** The 409 of an address another account uses (any spelling), named on the e-mail field. */
export const emailTakenError = () => new HttpError(409, 'user.email_taken', 'user.email_taken', {}, { email: ['user.email_taken'] });

export async function emailTaken(db: Database, email: string, exceptUserId?: string): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where(sql<SqlBool>`lower(email) = ${email.toLowerCase()}`);
  if (exceptUserId) query = query.where('id', '!=', exceptUserId);
  return !!(await query.executeTakeFirst());
}
