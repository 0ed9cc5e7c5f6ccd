// Two-factor sign-in (issue 27, build 1): TOTP codes (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of
// clock drift either way) from an authenticator app, ten one-time recovery codes, remembered devices and the
// challenge that joins a right password to the second step. The codes themselves are server/security/totp.ts
// (otpauth's arithmetic); what is kept here is the account's state: a code is taken once (RFC 6238 §5.2), a
// recovery code once, and everything a reset removes goes together; and who may set it up, switch it off or
// reset it (the password, the clinic's rule).
import { randomInt } from 'node:crypto';
import QRCode from 'qrcode';
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import type { Queryable, UserRow } from '../db/tables';
import { conflict, invalid } from '../http/errors';
import * as twoFactor from '../repositories/two-factor';
import { endUserSessions } from '../repositories/sessions';
import { policyFor, twoFactorRequired } from '../security/policy';
import { hashToken, newToken } from '../security/tokens';
import { matchingStep, newTotpSecret, totpUri } from '../security/totp';
import { notifyAccountChange } from './account-notices';
import { audit } from './audit';
import type { AuditAction } from './audit-actions';
import { confirmCurrentPassword } from './passwords';
import { clinicUser } from './profile';
import { freshlySignedIn, type SessionState } from './sessions';

/** The second step must follow the password within this time. */
export const CHALLENGE_MS = 5 * 60_000;
/** Wrong codes a challenge allows before it must start again with the password. */
export const CHALLENGE_ATTEMPTS = 5;
export const RECOVERY_CODE_COUNT = 10;
/** Recovery code characters: no 0/o, 1/l/i, so that a code copied from paper is read right. */
const RECOVERY_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';

/** What an authenticator app needs: the otpauth URI and its QR code. */
export async function enrolmentOf(secret: string, email: string): Promise<{ secret: string; uri: string; qrCode: string }> {
  const uri = totpUri(secret, email);
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** Takes a TOTP code for a user with two-factor sign-in on: true once, for a code of a step not used before. */
export async function takeTotpCode(ctx: AppContext, user: Pick<UserRow, 'id' | 'totp_secret' | 'totp_last_step'>, code: string): Promise<boolean> {
  if (!user.totp_secret) return false;
  const step = matchingStep(user.totp_secret, code, ctx.clock.now(), user.totp_last_step);
  if (step === null) return false;
  // Two requests with the same code at once: only one moves the step forward.
  return twoFactor.advanceTotpStep(ctx.db, user.id, step);
}

const normalRecoveryCode = (code: string) => code.toLowerCase().replace(/[^0-9a-z]/g, '');

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 12; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;
}

/** Ten new recovery codes (about 59 bits each) in place of the user's earlier ones; only their hashes are kept. */
export async function replaceRecoveryCodes(db: Queryable, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await twoFactor.deleteRecoveryCodes(db, userId);
  await twoFactor.insertRecoveryCodes(db, userId, codes.map((code) => hashToken(normalRecoveryCode(code))));
  return codes;
}

/** Takes one of the user's unused recovery codes: true once per code. */
export async function takeRecoveryCode(ctx: AppContext, userId: string, code: string): Promise<boolean> {
  const normal = normalRecoveryCode(code);
  if (normal.length !== 12) return false;
  return twoFactor.useRecoveryCode(ctx.db, userId, hashToken(normal), ctx.clock.now());
}

/** Switches two-factor sign-in off: the secret, the recovery codes, the remembered devices and open challenges go together. */
export async function removeSecondFactor(db: Queryable, userId: string, now: Date): Promise<void> {
  await twoFactor.clearSecret(db, userId);
  await twoFactor.deleteRecoveryCodes(db, userId);
  await twoFactor.revokeRememberedDevices(db, userId, now);
  await twoFactor.closeChallenges(db, userId, now);
}

/** A challenge for the second step after a right password. */
export async function createChallenge(ctx: AppContext, userId: string, remember: boolean): Promise<{ challenge: string; expiresAt: Date }> {
  const challenge = newToken();
  const expiresAt = new Date(ctx.clock.now().getTime() + CHALLENGE_MS);
  await twoFactor.insertChallenge(ctx.db, { userId, tokenHash: hashToken(challenge), remember, expiresAt });
  return { challenge, expiresAt };
}

/** An open challenge (not used, not expired, attempts left), or null. */
export async function findChallenge(ctx: AppContext, challenge: string) {
  const row = await twoFactor.unusedChallenge(ctx.db, hashToken(challenge));
  if (!row || row.expires_at <= ctx.clock.now() || row.failures >= CHALLENGE_ATTEMPTS) return null;
  return row;
}

/** A remembered device for the user, for `days` days. */
export async function rememberDevice(ctx: AppContext, userId: string, days: number, userAgent: string | null): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(ctx.clock.now().getTime() + days * 24 * 60 * 60_000);
  await twoFactor.insertRememberedDevice(ctx.db, { userId, tokenHash: hashToken(token), userAgent: userAgent?.slice(0, 300) ?? null, expiresAt });
  return { token, expiresAt };
}

/**
 * Is this a remembered device of the user that may still skip the second step? Only while the clinic allows
 * remembering at all (`days` > 0) and no longer than it allows now, counted from when it was remembered.
 */
export async function isRememberedDevice(ctx: AppContext, userId: string, token: string | undefined, days: number): Promise<boolean> {
  if (!token || days <= 0) return false;
  const row = await twoFactor.rememberedDevice(ctx.db, userId, hashToken(token));
  if (!row) return false;
  const now = ctx.clock.now().getTime();
  const allowedUntil = Math.min(row.expires_at.getTime(), row.created_at.getTime() + days * 24 * 60 * 60_000);
  return now < allowedUntil;
}

// ---- The signed-in user's second factor, and the IT admin's reset -----------------------------------

/** The current password, counted on the user's own re-authentication key; 422 on the field when wrong. */
async function assertCurrentPassword(ctx: AppContext, actor: Actor, user: UserRow, password: string, action: AuditAction): Promise<void> {
  if (!(await confirmCurrentPassword(ctx, actor, user, password, action))) throw invalid({ currentPassword: ['validation.current_password_wrong'] });
}

const alreadyEnabled = () => conflict('two_factor.already_enabled', 'two_factor.already_enabled');
const notEnabled = () => conflict('two_factor.not_enabled', 'two_factor.not_enabled');

/**
 * A new secret for the actor's authenticator app, kept pending until a code confirms it. The current password is
 * asked for, except right after a sign-in that was sent on to set up a required second factor (it proved it).
 */
export async function startEnrolment(
  ctx: AppContext,
  actor: Actor,
  session: SessionState,
  currentPassword: string | undefined,
): Promise<{ secret: string; uri: string; qrCode: string }> {
  const user = await clinicUser(ctx.db, actor.userId, actor.clinicId);
  if (user.totp_enabled_at !== null) throw alreadyEnabled();
  const proven = !currentPassword && session.twoFactorEnrolmentRequired && actor.sessionId !== undefined && (await freshlySignedIn(ctx, actor.sessionId));
  if (!proven) {
    if (!currentPassword) throw invalid({ currentPassword: ['validation.required'] });
    await assertCurrentPassword(ctx, actor, user, currentPassword, 'startTwoFactorEnrolment');
  }
  const secret = newTotpSecret();
  await twoFactor.setPendingSecret(ctx.db, user.id, secret);
  await audit(ctx.db, actor, { action: 'startTwoFactorEnrolment', outcome: 'success', targetType: 'user', targetId: user.id });
  return enrolmentOf(secret, user.email);
}

/** A code of the pending secret switches two-factor sign-in on; the new recovery codes, shown once. */
export async function confirmEnrolment(ctx: AppContext, actor: Actor, code: string): Promise<string[]> {
  const user = await clinicUser(ctx.db, actor.userId, actor.clinicId);
  if (user.totp_enabled_at !== null) throw alreadyEnabled();
  const secret = user.totp_pending_secret;
  if (secret === null) throw conflict('two_factor.no_enrolment', 'two_factor.no_enrolment');
  const now = ctx.clock.now();
  const step = matchingStep(secret, code, now, null);
  if (step === null) {
    await audit(ctx.db, actor, { action: 'confirmTwoFactor', outcome: 'failure', targetType: 'user', targetId: user.id, detail: { reason: 'wrong_code' } });
    throw invalid({ code: ['auth.second_factor_invalid'] });
  }
  const codes = await ctx.db.transaction().execute(async (tx) => {
    // The code that confirmed the secret is used: it cannot also sign in.
    await twoFactor.enableSecret(tx, user.id, secret, step, now);
    return replaceRecoveryCodes(tx, user.id);
  });
  await audit(ctx.db, actor, { action: 'confirmTwoFactor', outcome: 'success', targetType: 'user', targetId: user.id });
  notifyAccountChange(ctx, user.id, 'two_factor_enabled');
  return codes;
}

/** Switches the actor's second factor off with the password; not where the clinic requires one of the role. */
export async function disableSecondFactor(ctx: AppContext, actor: Actor, currentPassword: string): Promise<void> {
  const user = await clinicUser(ctx.db, actor.userId, actor.clinicId);
  if (user.totp_enabled_at === null) throw notEnabled();
  const policy = await policyFor(ctx.db, user.clinic_id, user.id);
  if (twoFactorRequired(policy, user.role)) throw conflict('two_factor.required', 'two_factor.required');
  await assertCurrentPassword(ctx, actor, user, currentPassword, 'disableTwoFactor');
  await ctx.db.transaction().execute((tx) => removeSecondFactor(tx, user.id, ctx.clock.now()));
  await audit(ctx.db, actor, { action: 'disableTwoFactor', outcome: 'success', targetType: 'user', targetId: user.id });
  notifyAccountChange(ctx, user.id, 'two_factor_disabled');
}

/** Ten new recovery codes in place of the actor's earlier ones, with the password. */
export async function renewRecoveryCodes(ctx: AppContext, actor: Actor, currentPassword: string): Promise<string[]> {
  const user = await clinicUser(ctx.db, actor.userId, actor.clinicId);
  if (user.totp_enabled_at === null) throw notEnabled();
  await assertCurrentPassword(ctx, actor, user, currentPassword, 'renewRecoveryCodes');
  const codes = await ctx.db.transaction().execute((tx) => replaceRecoveryCodes(tx, user.id));
  await audit(ctx.db, actor, { action: 'renewRecoveryCodes', outcome: 'success', targetType: 'user', targetId: user.id });
  notifyAccountChange(ctx, user.id, 'recovery_codes_renewed');
  return codes;
}

/** The IT admin removes a user's second factor (a lost phone) and ends the user's sessions; never their own. */
export async function resetSecondFactor(ctx: AppContext, actor: Actor, userId: string): Promise<void> {
  const user = await clinicUser(ctx.db, userId, actor.clinicId);
  // The IT admin's own second factor changes in the profile, with their password.
  if (user.id === actor.userId) throw conflict('two_factor.own_reset', 'two_factor.own_reset');
  if (user.totp_enabled_at === null && user.totp_pending_secret === null) throw notEnabled();
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (tx) => {
    await removeSecondFactor(tx, user.id, now);
    // Whoever holds the lost phone may hold a session too.
    await endUserSessions(tx, user.id, 'two_factor_reset', now);
  });
  await audit(ctx.db, actor, { action: 'resetTwoFactor', outcome: 'success', targetType: 'user', targetId: user.id });
  notifyAccountChange(ctx, user.id, 'two_factor_reset');
}
