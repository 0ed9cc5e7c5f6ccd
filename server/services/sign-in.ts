// Signing in and out: the password, then (where the account has one and the browser is not remembered) the second
// factor, each step throttled and audited; a user who proved who they are gets a session and their profile.
import type { RememberedDevice } from '../../generated/model/rememberedDevice';
import type { SecondFactorRequest } from '../../generated/model/secondFactorRequest';
import type { SignedIn } from '../../generated/model/signedIn';
import type { SignInRequest } from '../../generated/model/signInRequest';
import type { SignInResponseData } from '../../generated/model/signInResponseData';
import type { Actor, Origin } from '../actor';
import type { AppContext } from '../context';
import type { UserRow } from '../db/tables';
import { invalid, unauthorized } from '../http/errors';
import { accountByEmail, accountById, recordSignIn } from '../repositories/accounts';
import { clinicName } from '../repositories/clinic';
import { endSession } from '../repositories/sessions';
import { countChallengeFailure, useChallenge } from '../repositories/two-factor';
import { verifyPassword } from '../security/password-hash';
import { policyFor, twoFactorRequired, type UserPolicy } from '../security/policy';
import { clearFailures, failAndSlowDown, isKnownAddress, lockedFor, pairKey, signInKeys, throttled } from '../security/throttle';
import { audit } from './audit';
import { warnOfPasswordExpiry } from './passwords';
import { profileOf } from './profile';
import { createSession } from './sessions';
import { createChallenge, findChallenge, isRememberedDevice, rememberDevice, takeRecoveryCode, takeTotpCode } from './two-factor';

/** Where a sign-in comes from: the caller's origin and the browser it names (kept with the session, cut to 300 characters). */
export interface SignInOrigin extends Origin {
  userAgent: string | null;
}

const invalidCredentials = () => unauthorized('auth.invalid_credentials', 'auth.invalid_credentials');
const secondFactorExpired = () => unauthorized('auth.second_factor_expired', 'auth.second_factor_expired');

/** The address throttling counts by: the client's (outside HTTP there is none, and all such calls count as one). */
const addressOf = (origin: Origin) => origin.ip ?? '';

/**
 * The first step: the password. Answers a session with the profile, or a challenge for the second step where the
 * account has a second factor and this browser is not a remembered device. 401 for a wrong password, an unknown
 * address and an account that is not active alike; 429 while the account or the address is locked.
 */
export async function signIn(ctx: AppContext, origin: SignInOrigin, request: SignInRequest): Promise<SignInResponseData> {
  const { email, password } = request;
  const remember = request.remember ?? true;
  const ip = addressOf(origin);
  const user = await accountByEmail(ctx.db, email);
  // Where the account signed in before, only its own failures from there can hold it back: colleagues
  // behind the clinic's shared address are not locked out by someone else's guesses.
  const knownAddress = await isKnownAddress(ctx, user?.id ?? null, ip);
  const keys = signInKeys(email, ip, knownAddress);
  const lockedSeconds = await lockedFor(ctx, keys.check);
  if (lockedSeconds > 0) {
    await audit(ctx.db, origin, { action: 'signIn', outcome: 'denied', detail: { reason: 'throttled' } });
    throw throttled(lockedSeconds);
  }

  // The hash is checked whatever the account's state, so that answers take the same time.
  const passwordOk = await verifyPassword(user?.password_hash ?? null, password);
  if (!user || !passwordOk || user.status !== 'active') {
    await audit(ctx.db, origin, {
      action: 'signIn',
      outcome: 'failure',
      clinicId: user?.clinic_id ?? null,
      targetType: user ? 'user' : undefined,
      targetId: user?.id,
      detail: { reason: !user ? 'unknown_account' : !passwordOk ? 'wrong_password' : `status_${user.status}` },
    });
    await failAndSlowDown(ctx, keys.count);
    throw invalidCredentials();
  }

  // The account's own count from this address starts again; its count over all addresses does not, or
  // one success would reset guessing spread over many addresses.
  await clearFailures(ctx, pairKey(email, ip));
  const policy = await policyFor(ctx.db, user.clinic_id, user.id);
  if (user.totp_enabled_at !== null && !(await isRememberedDevice(ctx, user.id, request.rememberedDevice, policy.rememberDeviceDays))) {
    const { challenge, expiresAt } = await createChallenge(ctx, user.id, remember);
    await auditSignIn(ctx, origin, user, { remember, step: 'password', secondFactor: 'pending' });
    return { secondFactor: { challenge, expiresAt: expiresAt.toISOString(), rememberDeviceDays: policy.rememberDeviceDays } };
  }
  return startSession(ctx, origin, user, policy, { remember, detail: user.totp_enabled_at ? { secondFactor: 'remembered_device' } : {} });
}

/**
 * The second step: a code of the authenticator app or a recovery code, each taken once, for an open challenge.
 * Wrong codes count against the challenge (five close it) and on the account's sign-in throttle; a remembered
 * device is issued where asked for and the clinic allows it.
 */
export async function signInSecondFactor(ctx: AppContext, origin: SignInOrigin, request: SecondFactorRequest): Promise<SignedIn> {
  const { code, recoveryCode } = request;
  if (!code && !recoveryCode) throw invalid({ code: ['validation.required'] });
  const challenge = await findChallenge(ctx, request.challenge);
  const user = challenge ? await accountById(ctx.db, challenge.user_id) : undefined;
  if (!challenge || !user || user.status !== 'active' || user.totp_secret === null) {
    await audit(ctx.db, origin, { action: 'signInSecondFactor', outcome: 'failure', detail: { reason: 'challenge' } });
    throw secondFactorExpired();
  }
  // Wrong codes count where wrong passwords do: the account's own keys, from this address and from all.
  const ip = addressOf(origin);
  const keys = signInKeys(user.email, ip, await isKnownAddress(ctx, user.id, ip));
  const lockedSeconds = await lockedFor(ctx, keys.check);
  if (lockedSeconds > 0) throw throttled(lockedSeconds);

  const method = recoveryCode ? 'recovery_code' : 'totp';
  const taken = recoveryCode ? await takeRecoveryCode(ctx, user.id, recoveryCode) : await takeTotpCode(ctx, user, code!);
  if (!taken) {
    await countChallengeFailure(ctx.db, challenge.id);
    await audit(ctx.db, origin, {
      action: 'signInSecondFactor',
      outcome: 'failure',
      clinicId: user.clinic_id,
      targetType: 'user',
      targetId: user.id,
      detail: { method },
    });
    await failAndSlowDown(ctx, keys.count);
    throw unauthorized('auth.second_factor_invalid', 'auth.second_factor_invalid');
  }
  // Two answers for one challenge make one session.
  if (!(await useChallenge(ctx.db, challenge.id, ctx.clock.now()))) throw secondFactorExpired();
  await clearFailures(ctx, pairKey(user.email, ip));
  const policy = await policyFor(ctx.db, user.clinic_id, user.id);
  const remembered =
    request.rememberDevice && policy.rememberDeviceDays > 0 ? await rememberDevice(ctx, user.id, policy.rememberDeviceDays, origin.userAgent) : null;
  return startSession(ctx, origin, user, policy, {
    remember: challenge.remember,
    detail: { secondFactor: method, rememberedDevice: remembered !== null },
    rememberedDevice: remembered ? { token: remembered.token, expiresAt: remembered.expiresAt.toISOString() } : undefined,
  });
}

/** A successful sign-in step, recorded as the user's own act. */
const auditSignIn = (ctx: AppContext, origin: Origin, user: UserRow, detail: Record<string, unknown>) =>
  audit(ctx.db, origin, {
    action: 'signIn',
    outcome: 'success',
    clinicId: user.clinic_id,
    actorId: user.id,
    actorRole: user.role,
    targetType: 'user',
    targetId: user.id,
    detail,
  });

/** The session of a user who proved who they are, with the profile, as both sign-in steps answer it. */
async function startSession(
  ctx: AppContext,
  origin: SignInOrigin,
  user: UserRow,
  policy: UserPolicy,
  options: { remember: boolean; detail: Record<string, unknown>; rememberedDevice?: RememberedDevice },
): Promise<SignedIn> {
  const now = ctx.clock.now();
  // Where the clinic requires a second factor the user has not set up, this session can only set one up.
  const secondFactorSetup = user.totp_enabled_at === null && twoFactorRequired(policy, user.role);
  const session = await createSession(ctx, user, { remember: options.remember, ip: origin.ip, userAgent: origin.userAgent, secondFactorSetup });
  await recordSignIn(ctx.db, user.id, now);
  await auditSignIn(ctx, origin, user, { remember: options.remember, ...options.detail });
  const clinic = await clinicName(ctx.db, user.clinic_id);
  await warnOfPasswordExpiry(ctx, user, policy, now);
  return {
    token: session.token,
    expiresAt: session.expiresAt.toISOString(),
    profile: await profileOf(ctx, { ...user, last_sign_in_at: now }, clinic, policy, now, secondFactorSetup),
    ...(options.rememberedDevice ? { rememberedDevice: options.rememberedDevice } : {}),
  };
}

/** Ends the actor's own session (the others stay signed in). */
export async function logout(ctx: AppContext, actor: Actor): Promise<void> {
  if (actor.sessionId) await endSession(ctx.db, actor.sessionId, 'logout', ctx.clock.now());
  await audit(ctx.db, actor, { action: 'logout', outcome: 'success', targetType: 'user', targetId: actor.userId });
}
