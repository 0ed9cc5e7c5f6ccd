// The queries of the staff (users of a clinic) as the IT admin screens and the clinic settings need them: the
// clinic's staff and one member with the expiry of their open invite, the list's ordered ids, the lookups and
// writes of the staff lifecycle, and the accounts a clinic-wide password rule reaches. Each takes the database
// or a transaction.
import { type Expression, type SqlBool, sql } from 'kysely';
import type { UserSort } from '../../generated/model/userSort';
import { containsPattern } from '../db/listing';
import type { NewUser, Queryable, UserRow, UserUpdate } from '../db/tables';

/** A user row with the expiry of its open invite link (null when none is open). */
export type StaffRow = UserRow & { invite_expires_at: Date | string | null };

/** Users of the clinic with the expiry of their open invite link. */
function staffQuery(db: Queryable, clinicId: string) {
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

export async function findStaff(db: Queryable, clinicId: string, id: string): Promise<StaffRow | undefined> {
  return (await staffQuery(db, clinicId).where('u.id', '=', id).executeTakeFirst()) as StaffRow | undefined;
}

/** Every user of the clinic with the expiry of their open invite link (one pass over the clinic's links). */
export async function allStaff(db: Queryable, clinicId: string): Promise<StaffRow[]> {
  const invites = db
    .selectFrom('user_tokens as t')
    .innerJoin('users as x', 'x.id', 't.user_id')
    .select(['t.user_id', (eb) => eb.fn.max('t.expires_at').as('expires_at')])
    .where('x.clinic_id', '=', clinicId)
    .where('t.kind', '=', 'invite')
    .where('t.used_at', 'is', null)
    .where('t.revoked_at', 'is', null)
    .groupBy('t.user_id');
  const rows = await db
    .selectFrom('users as u')
    .leftJoin(invites.as('i'), 'i.user_id', 'u.id')
    .selectAll('u')
    .select('i.expires_at as invite_expires_at')
    .where('u.clinic_id', '=', clinicId)
    .execute();
  return rows as StaffRow[];
}

export interface StaffFilter {
  clinicId: string;
  search?: string;
  /** Canonical role names; none: every role. */
  roles?: string[];
  /** Only this status; without it, every status but `hiddenStatuses`. */
  status?: string;
  hiddenStatuses: readonly string[];
  inviteStatus?: string;
  sort?: UserSort;
}

/** The ids of the clinic's staff that match, in the list's order (the sort key, then names and id). */
export async function staffIds(db: Queryable, q: StaffFilter): Promise<string[]> {
  let query = db.selectFrom('users as u').select('u.id').where('u.clinic_id', '=', q.clinicId);
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
  if (q.roles?.length) query = query.where('u.role', 'in', q.roles);
  query = q.status ? query.where('u.status', '=', q.status) : query.where('u.status', 'not in', [...q.hiddenStatuses]);
  if (q.inviteStatus) query = query.where('u.invite_status', '=', q.inviteStatus);

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
  return (await ordered.orderBy('u.id', 'asc').execute()).map((row) => row.id);
}

/** The clinic's users among `ids`, locked for the rest of the transaction (a bulk action's rows). */
export function lockStaff(tx: Queryable, clinicId: string, ids: string[]) {
  return tx
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'clinic_id', 'status', 'invite_status', 'previous_status'])
    .where('clinic_id', '=', clinicId)
    .where('id', 'in', ids)
    .forUpdate()
    .execute();
}

/** Which of `ids` are users of the clinic. */
export async function clinicUserIds(db: Queryable, clinicId: string, ids: string[]): Promise<string[]> {
  const rows = await db.selectFrom('users').select('id').where('clinic_id', '=', clinicId).where('id', 'in', ids).execute();
  return rows.map((row) => row.id);
}

export function insertUser(db: Queryable, values: NewUser) {
  return db.insertInto('users').values(values).returning(['id', 'email', 'first_name', 'clinic_id']).executeTakeFirstOrThrow();
}

/** Changes a user of the clinic (`changes` carries its own updated_at). */
export async function updateStaff(db: Queryable, clinicId: string, id: string, changes: UserUpdate): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).where('clinic_id', '=', clinicId).execute();
}

/** The id and password hash of a user (the acting admin's, to confirm a grant). */
export function passwordOf(db: Queryable, userId: string) {
  return db.selectFrom('users').select(['id', 'password_hash']).where('id', '=', userId).executeTakeFirstOrThrow();
}

/** The id of the account with this address (any clinic, any spelling), other than `exceptUserId`. */
export async function userIdByEmail(db: Queryable, email: string, exceptUserId?: string): Promise<string | undefined> {
  let query = db.selectFrom('users').select('id').where(sql<SqlBool>`lower(email) = ${email.toLowerCase()}`);
  if (exceptUserId) query = query.where('id', '!=', exceptUserId);
  return (await query.executeTakeFirst())?.id;
}

/** Active users of the clinic whose password was last changed at or before `changedBefore` (only `ids` when given). */
export async function activeUsersWithPasswordsBefore(db: Queryable, clinicId: string, changedBefore: Date, ids?: string[]): Promise<string[]> {
  let query = db
    .selectFrom('users')
    .select('id')
    .where('clinic_id', '=', clinicId)
    .where('status', '=', 'active')
    .where('password_changed_at', '<=', changedBefore);
  if (ids) query = query.where('id', 'in', ids);
  return (await query.execute()).map((row) => row.id);
}

/** Users of the clinic who have accepted their invite (and so have had a password), but one; only `ids` when given. */
export function acceptedUsers(db: Queryable, clinicId: string, exceptUserId: string, ids?: string[]) {
  let query = db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'status', 'lang'])
    .where('clinic_id', '=', clinicId)
    .where('id', '!=', exceptUserId)
    .where('invite_status', '=', 'accepted');
  if (ids) query = query.where('id', 'in', ids);
  return query.execute();
}

/** The users' passwords stop working: cleared, and a new one is asked for at the next sign-in. */
export async function clearPasswords(db: Queryable, userIds: string[], now: Date): Promise<void> {
  await db.updateTable('users').set({ password_hash: null, must_change_password: true, updated_at: now }).where('id', 'in', userIds).execute();
}
