// The queries of invitations: the invite link (a user_tokens row of kind 'invite'), the user it makes
// pending, the names the invite mail greets with, and the expiry of invites whose links ran out.
import type { Queryable } from '../db/tables';
import { insertLink } from './user-tokens';

/** Stores a new invite link and marks the user invited. */
export async function insertInvite(tx: Queryable, userId: string, tokenHash: string, expiresAt: Date, now: Date): Promise<void> {
  await insertLink(tx, { userId, kind: 'invite', tokenHash, now, expiresAt });
  await tx.updateTable('users').set({ status: 'pending', invite_status: 'pending', updated_at: now }).where('id', '=', userId).execute();
}

/** The invitee's names as saved and their clinic's name. */
export function inviteeNames(db: Queryable, userId: string) {
  return db
    .selectFrom('clinics as c')
    .innerJoin('users as u', 'u.clinic_id', 'c.id')
    .select(['c.name', 'u.first_name', 'u.last_name'])
    .where('u.id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** Pending users of the clinic without an open, unexpired invite link become invite_expired. */
export async function expireInvites(db: Queryable, clinicId: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ status: 'invite_expired', invite_status: 'invite_expired' })
    .where('clinic_id', '=', clinicId)
    .where('status', '=', 'pending')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('user_tokens as t')
            .select('t.id')
            .whereRef('t.user_id', '=', 'users.id')
            .where('t.kind', '=', 'invite')
            .where('t.used_at', 'is', null)
            .where('t.revoked_at', 'is', null)
            .where('t.expires_at', '>', now),
        ),
      ),
    )
    .execute();
}
