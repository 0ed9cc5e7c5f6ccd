// Passwords: the rules a new one must meet (the spec's, then strength and breach checks), the signed-in user's
// change of their own, and the warning before one must be renewed. Setting one from a link is reset-links.ts
// (reset) and invite-acceptance.ts (the first one).
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import { HttpError, invalid, notFound } from '../http/errors';
import type { Lang, MessageKey } from '../i18n';
import { checkPassword, type PasswordInput } from '../../src/domain/passwords/password-rules';
import { clinicAccount, notifiedSince, setPassword } from '../repositories/accounts';
import { endUserSessions } from '../repositories/sessions';
import { revokeOpenLinks } from '../repositories/user-tokens';
import { hashPassword, verifyPassword } from '../security/password-hash';
import { nextPasswordChange, policyFor, type UserPolicy } from '../security/policy';
import { confirmPassword } from '../security/throttle';
import { notifyPasswordChanged } from './account-notices';
import { audit } from './audit';
import type { AuditAction } from './audit-actions';
import { notify } from './notifications';
import { freshlySignedIn, type SessionState } from './sessions';

/** A new password with whose it is: the estimator counts the user's names and e-mail address as guessable. */
export interface NewPasswordInput extends PasswordInput {
  /** The language of zxcvbn's feedback in the message: the request's. */
  lang: Lang;
  firstName?: string | null;
  lastName?: string | null;
}

// The estimator's dictionaries take about 0.25 s to load and rank: loaded with the first new password a
// process checks, then kept (a server or test process that sets no password never loads them).
const passwordStrength = () => import('../../src/domain/passwords/password-strength');

/**
 * Throws the 422 envelope with field errors when a new password breaks the spec's rules
 * (src/domain/passwords/password-rules.ts) or, once it meets them, is breached or too easy to guess for the
 * strength level (src/domain/passwords/password-strength.ts); then the message carries zxcvbn's warning and
 * suggestions in the request's language.
 */
export async function assertNewPassword(input: NewPasswordInput, extra: Record<string, MessageKey[]> = {}): Promise<void> {
  const errors: Record<string, MessageKey[]> = { ...extra };
  for (const [field, keys] of Object.entries(checkPassword(input))) {
    if (keys?.length) errors[field] = [...(errors[field] ?? []), ...keys];
  }
  let feedback = '';
  // One problem at a time: the estimator speaks only of a password that meets every rule.
  if (input.password && !errors.password?.length) {
    const { estimatePassword, feedbackTexts, userInputsOf } = await passwordStrength();
    const estimate = estimatePassword(input.password, input.strength, userInputsOf(input));
    if (!estimate.acceptable) {
      errors.password = [estimate.breached ? 'validation.password_breached' : 'validation.password_weak'];
      const texts = feedbackTexts(estimate, input.lang);
      feedback = (texts.length ? texts : feedbackTexts({ warning: null, suggestions: ['anotherWord'] }, input.lang)).join(' ');
    }
  }
  if (!Object.keys(errors).length) return;
  throw feedback ? new HttpError(422, 'request.invalid', 'request.invalid', { feedback }, errors) : invalid(errors);
}

/**
 * Is `password` the actor's own? Counted on the user's re-authentication key (429 once it is locked); a wrong one
 * is audited as a failure of `action`.
 */
export async function confirmCurrentPassword(
  ctx: AppContext,
  actor: Actor,
  user: { id: string; password_hash: string | null },
  password: string,
  action: AuditAction,
): Promise<boolean> {
  if (await confirmPassword(ctx, user, password)) return true;
  await audit(ctx.db, actor, { action, outcome: 'failure', targetType: 'user', targetId: user.id, detail: { reason: 'wrong_current_password' } });
  return false;
}

export interface PasswordChange {
  /** Not needed right after a sign-in with the expired password (the sign-in proved it). */
  currentPassword?: string;
  password: string;
  passwordConfirmation: string;
}

/** A password change asked of a session that signed in with its expired password within the last 15 minutes. */
async function freshlySignedInToRenew(ctx: AppContext, actor: Actor, session: SessionState): Promise<boolean> {
  if (session.passwordChangeRequired !== 'expired' || actor.sessionId === undefined) return false;
  return freshlySignedIn(ctx, actor.sessionId);
}

/**
 * The actor's new password: the current one is confirmed (counted on the user's re-authentication key), the new
 * one differs from it and meets the clinic's rules. The user's other sessions end and open reset links stop working.
 */
export async function changePassword(ctx: AppContext, actor: Actor, session: SessionState, change: PasswordChange): Promise<void> {
  const { currentPassword, password, passwordConfirmation } = change;
  const user = await clinicAccount(ctx.db, actor.userId, actor.clinicId);
  if (!user) throw notFound();
  const errors: Record<string, MessageKey[]> = {};
  // Right after signing in with an expired password, the sign-in proved it: /new-password does not ask again.
  const proven = !currentPassword && (await freshlySignedInToRenew(ctx, actor, session));
  // Guessing the current password through this call counts on the user's own re-authentication key.
  const currentOk = proven || (currentPassword ? await confirmCurrentPassword(ctx, actor, user, currentPassword, 'changePassword') : false);
  if (!currentPassword && !proven) {
    errors.currentPassword = ['validation.required'];
  } else if (!currentOk) {
    errors.currentPassword = ['validation.current_password_wrong'];
  } else if (currentPassword ? password === currentPassword : await verifyPassword(user.password_hash, password)) {
    errors.password = ['validation.password_unchanged'];
  }
  const policy = await policyFor(ctx.db, actor.clinicId, actor.userId);
  await assertNewPassword(
    { password, passwordConfirmation, strength: policy.strength, email: user.email, firstName: user.first_name, lastName: user.last_name, lang: actor.lang },
    errors,
  );

  const hash = await hashPassword(password);
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (tx) => {
    await setPassword(tx, user.id, hash, now);
    await endUserSessions(tx, user.id, 'password_changed', now, { except: actor.sessionId });
    // A reset link asked for earlier must not set the password back afterwards.
    await revokeOpenLinks(tx, [user.id], now, 'reset');
  });
  await audit(ctx.db, actor, { action: 'changePassword', outcome: 'success', targetType: 'user', targetId: user.id });
  notifyPasswordChanged(ctx, user.id);
}

const EXPIRY_WARNING_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Within the last 7 days before the password must be renewed, the user is told once (per password)
 * by a notification, and by e-mail if they chose so.
 */
export async function warnOfPasswordExpiry(
  ctx: AppContext,
  user: { id: string; clinic_id: string; password_changed_at: Date | null },
  policy: UserPolicy,
  now: Date,
): Promise<void> {
  const due = nextPasswordChange(user.password_changed_at, policy);
  if (!due || !user.password_changed_at || due <= now || due.getTime() - now.getTime() > EXPIRY_WARNING_MS) return;
  if (await notifiedSince(ctx.db, user.id, 'password_expiring', user.password_changed_at)) return;
  await notify(ctx, {
    clinicId: user.clinic_id,
    to: { userIds: [user.id] },
    event: 'password_expiring',
    params: { date: due.toISOString().slice(0, 10) },
    link: '/profile-settings',
  });
}
