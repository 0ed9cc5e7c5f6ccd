// Password reset links (user_tokens of kind "reset"): one open link per user, a new one revokes the others.
// Asked for on the sign-in page ("Forgot password?", valid an hour) or sent by a forced reset of the IT admin,
// which also clears the password (valid a day: the e-mail may be read the next morning).
import type { Database } from '../db/tables';
import { hashToken, newToken } from '../security/tokens';
import { revokeOpenLinks } from './user-tokens';

const HOUR_MS = 60 * 60 * 1000;
/** A link asked for on the sign-in page. */
export const RESET_LINK_MS = HOUR_MS;
/** A link sent with a forced reset. */
export const FORCED_RESET_LINK_MS = 24 * HOUR_MS;

/** Revokes the users' open reset links and issues a new one; its token, for the e-mail's link only. */
export async function issueResetLink(db: Database, userId: string, now: Date, validMs: number): Promise<string> {
  const token = newToken();
  await revokeOpenLinks(db, [userId], now, 'reset');
  await db
    .insertInto('user_tokens')
    .values({ user_id: userId, kind: 'reset', token_hash: hashToken(token), created_at: now, expires_at: new Date(now.getTime() + validMs) })
    .execute();
  return token;
}

/** The page a reset link opens. */
export const resetLinkUrl = (publicUrl: string, token: string) => `${publicUrl}/new-password?token=${encodeURIComponent(token)}`;
