// Invite and reset links (user_tokens): revoking the open ones and using one up.
import type { Database } from '../db/tables';

/** Open links of these users (of one kind, or all) stop working. */
export async function revokeOpenLinks(
  db: Database,
  userIds: string[],
  now: Date,
  kind?: 'invite' | 'reset' | 'email',
): Promise<void> {
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
export async function consumeLink(db: Database, tokenId: string, now: Date): Promise<boolean> {
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
export async function pendingEmailOf(db: Database, userId: string, now: Date): Promise<string | null> {
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
