// The queries of the links mailed to an account (user_tokens: invite, reset and e-mail confirmation links,
// stored only as hashes). Each takes the database or a transaction; how long a link works and what using it
// does is decided by the services (invites, reset-links, email-change, invite-acceptance).
import type { Queryable } from '../db/tables';

export type LinkKind = 'invite' | 'reset' | 'email';

/** Stores a new link; `email` is the new address an `email` link confirms. */
export async function insertLink(
  db: Queryable,
  link: { userId: string; kind: LinkKind; tokenHash: string; now: Date; expiresAt: Date; email?: string },
): Promise<void> {
  await db
    .insertInto('user_tokens')
    .values({
      user_id: link.userId,
      kind: link.kind,
      token_hash: link.tokenHash,
      email: link.email ?? null,
      created_at: link.now,
      expires_at: link.expiresAt,
    })
    .execute();
}

/** An open (unused, unrevoked) invite or reset link with its user and clinic; expiry is left to the caller. */
export function openAccountLink(db: Queryable, tokenHash: string, kind: 'invite' | 'reset') {
  return db
    .selectFrom('user_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .innerJoin('clinics as c', 'c.id', 'u.clinic_id')
    .select([
      't.id as tokenId',
      't.expires_at',
      'u.id as userId',
      'u.clinic_id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.role',
      'u.status',
      'c.name as clinicName',
    ])
    .where('t.token_hash', '=', tokenHash)
    .where('t.kind', '=', kind)
    .where('t.used_at', 'is', null)
    .where('t.revoked_at', 'is', null)
    .executeTakeFirst();
}

/** An open e-mail confirmation link with the account it changes; expiry is left to the caller. */
export function openEmailLink(db: Queryable, tokenHash: string) {
  return db
    .selectFrom('user_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.id as tokenId', 't.email as newEmail', 't.expires_at', 'u.id as userId', 'u.clinic_id', 'u.role', 'u.email', 'u.status'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.kind', '=', 'email')
    .where('t.used_at', 'is', null)
    .where('t.revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Open links of these users (of one kind, or all) stop working. */
export async function revokeOpenLinks(db: Queryable, userIds: string[], now: Date, kind?: LinkKind): Promise<void> {
  if (!userIds.length) return;
  let query = db
    .updateTable('user_tokens')
    .set({ revoked_at: now })
    .where('user_id', 'in', userIds)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null);
  if (kind) query = query.where('kind', '=', kind);
  await query.execute();
}

/**
 * Uses up a link. Only one of two concurrent callers succeeds: the update is the guard, so a link
 * can never set a password twice.
 */
export async function consumeLink(db: Queryable, tokenId: string, now: Date): Promise<boolean> {
  const consumed = await db
    .updateTable('user_tokens')
    .set({ used_at: now })
    .where('id', '=', tokenId)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(consumed.numUpdatedRows) === 1;
}

/** The address waiting for the user's confirmation, if any. */
export async function pendingEmailOf(db: Queryable, userId: string, now: Date): Promise<string | null> {
  const pending = await db
    .selectFrom('user_tokens')
    .select('email')
    .where('user_id', '=', userId)
    .where('kind', '=', 'email')
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return pending?.email ?? null;
}
