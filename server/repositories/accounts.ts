// The queries of an account's sign-in data: the user row found by address or id, its password, its address, the
// accepted invite, and whom its notices go to. Each takes the database or a transaction; the rules are in the
// services (sign-in, profile, reset-links, invite-acceptance, email-change, account-notices). The staff lists and
// lifecycle are repositories/users.ts.
import type { Queryable, UserRow } from '../db/tables';

/** The account of an address, in any spelling (addresses are unique without regard to case). */
export function accountByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const normal = email.trim().toLowerCase();
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', normal))
    .executeTakeFirst();
}

export function accountById(db: Queryable, userId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** The account of a user of `clinicId`; undefined for anyone else. */
export function clinicAccount(db: Queryable, userId: string, clinicId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).where('clinic_id', '=', clinicId).executeTakeFirst();
}

export async function recordSignIn(db: Queryable, userId: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', userId).execute();
}

/** A new password: it counts from `now`, and no change is asked for any more. */
export async function setPassword(db: Queryable, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: now, must_change_password: false, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** An invited account becomes active with its first password and the versions of the legal texts it accepted. */
export async function activateInvitedAccount(
  db: Queryable,
  userId: string,
  { passwordHash, now, eulaVersion, privacyVersion }: { passwordHash: string; now: Date; eulaVersion: string; privacyVersion: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      password_hash: passwordHash,
      password_changed_at: now,
      must_change_password: false,
      status: 'active',
      invite_status: 'accepted',
      eula_accepted_at: now,
      eula_version: eulaVersion,
      privacy_accepted_at: now,
      privacy_version: privacyVersion,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
}

export async function setEmail(db: Queryable, userId: string, email: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ email, updated_at: now }).where('id', '=', userId).execute();
}

/** Whom an account's mail is written to: the owner's address, names, language and clinic. */
export interface AccountOwner {
  email: string;
  first_name: string;
  last_name: string;
  lang: string;
  clinic: string;
}

export function accountOwner(db: Queryable, userId: string): Promise<AccountOwner | undefined> {
  return db
    .selectFrom('users as u')
    .innerJoin('clinics as c', 'c.id', 'u.clinic_id')
    .select(['u.email', 'u.first_name', 'u.last_name', 'u.lang', 'c.name as clinic'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

/** The users of the clinic among `userIds`, and its active IT admins, as a notice to them needs them. */
export function usersAndActiveItAdmins(db: Queryable, clinicId: string, userIds: string[]) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'lang', 'role', 'status'])
    .where('clinic_id', '=', clinicId)
    .where((eb) => eb.or([eb('id', 'in', userIds), eb.and([eb('role', '=', 'clinic_it_admins'), eb('status', '=', 'active')])]))
    .execute();
}

/** Has the user been notified of `event` since `since` (a notice given once per password)? */
export async function notifiedSince(db: Queryable, userId: string, event: string, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom('notifications')
    .select('id')
    .where('user_id', '=', userId)
    .where('event', '=', event)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return row !== undefined;
}
