// The queries of two-factor sign-in: the TOTP columns of users, recovery codes, remembered devices and the
// challenges between a right password and the second step (all secrets stored only as hashes). Each takes the
// database or a transaction; the rules (a code once, a challenge's time and attempts) are in
// server/services/two-factor.ts.
import type { Queryable } from '../db/tables';

// ---- The TOTP secret --------------------------------------------------------------------------------

/** Keeps a secret shown for enrolment until a code confirms it. */
export async function setPendingSecret(db: Queryable, userId: string, secret: string): Promise<void> {
  await db.updateTable('users').set({ totp_pending_secret: secret }).where('id', '=', userId).execute();
}

/** The pending secret becomes the account's, with the step of the code that confirmed it used. */
export async function enableSecret(db: Queryable, userId: string, secret: string, step: number, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ totp_secret: secret, totp_pending_secret: null, totp_enabled_at: now, totp_last_step: step, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Moves the last used step forward to `step`: true only when it was before (of two requests at once, one). */
export async function advanceTotpStep(db: Queryable, userId: string, step: number): Promise<boolean> {
  const taken = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

export async function clearSecret(db: Queryable, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null })
    .where('id', '=', userId)
    .execute();
}

// ---- Recovery codes -----------------------------------------------------------------------------------

export async function deleteRecoveryCodes(db: Queryable, userId: string): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}

export async function insertRecoveryCodes(db: Queryable, userId: string, codeHashes: string[]): Promise<void> {
  await db
    .insertInto('recovery_codes')
    .values(codeHashes.map((hash) => ({ user_id: userId, code_hash: hash })))
    .execute();
}

/** Marks the unused code of this hash used: true once per code. */
export async function useRecoveryCode(db: Queryable, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const taken = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

export async function unusedRecoveryCodes(db: Queryable, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('left'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.left);
}

// ---- Remembered devices -------------------------------------------------------------------------------

export async function insertRememberedDevice(
  db: Queryable,
  device: { userId: string; tokenHash: string; userAgent: string | null; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('remembered_devices')
    .values({ user_id: device.userId, token_hash: device.tokenHash, user_agent: device.userAgent, expires_at: device.expiresAt })
    .execute();
}

/** The unrevoked remembered device of the user with this token hash: when it was remembered and until when. */
export function rememberedDevice(db: Queryable, userId: string, tokenHash: string) {
  return db
    .selectFrom('remembered_devices')
    .select(['created_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function revokeRememberedDevices(db: Queryable, userId: string, now: Date): Promise<void> {
  await db.updateTable('remembered_devices').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

// ---- Sign-in challenges -------------------------------------------------------------------------------

export async function insertChallenge(db: Queryable, challenge: { userId: string; tokenHash: string; remember: boolean; expiresAt: Date }): Promise<void> {
  await db
    .insertInto('sign_in_challenges')
    .values({ user_id: challenge.userId, token_hash: challenge.tokenHash, remember: challenge.remember, expires_at: challenge.expiresAt })
    .execute();
}

/** The unused challenge of this token hash (expired or not). */
export function unusedChallenge(db: Queryable, tokenHash: string) {
  return db
    .selectFrom('sign_in_challenges')
    .select(['id', 'user_id', 'remember', 'failures', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
}

export async function countChallengeFailure(db: Queryable, challengeId: string): Promise<void> {
  await db
    .updateTable('sign_in_challenges')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('id', '=', challengeId)
    .execute();
}

/** Marks the challenge used: true only for the first caller. */
export async function useChallenge(db: Queryable, challengeId: string, now: Date): Promise<boolean> {
  const used = await db
    .updateTable('sign_in_challenges')
    .set({ used_at: now })
    .where('id', '=', challengeId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** Every open challenge of the user stops working. */
export async function closeChallenges(db: Queryable, userId: string, now: Date): Promise<void> {
  await db.updateTable('sign_in_challenges').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}
