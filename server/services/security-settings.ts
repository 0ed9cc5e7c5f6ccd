// The clinic's security settings (password strength, renewal, idle logout, two-factor roles), their preview,
// the end of password renewal and forced password resets (IT admins). Everything is scoped to the actor's clinic.
import type { ForceResetPassword } from '../../generated/model/forceResetPassword';
import type { SecuritySettings } from '../../generated/model/securitySettings';
import type { SecuritySettingsPreviewResponseData } from '../../generated/model/securitySettingsPreviewResponseData';
import { IDLE_LOGOUT_BOUNDS, periodMs, RENEWAL_BOUNDS, withinBounds } from '../../src/domain/security/setting-bounds';
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import type { Queryable } from '../db/tables';
import { invalid } from '../http/errors';
import { type MessageKey, translate } from '../i18n';
import * as clinic from '../repositories/clinic';
import * as users from '../repositories/users';
import { RENEWAL_GRACE_MS } from '../security/policy';
import { audit } from './audit';
import { FORCED_RESET_LINK_MS, issueResetLink, resetLinkUrl } from './reset-links';
import { endUserSessions } from '../repositories/sessions';

const HOUR_MS = 60 * 60 * 1000;

/**
 * The clinic's settings, its row created with the table defaults when missing: standard strength, no renewal,
 * all users, no idle logout. These are the rules the server applies without a row (DEFAULT_POLICY), so reading
 * the settings never changes what applies.
 */
async function settingsOf(db: Queryable, clinicId: string): Promise<SecuritySettings> {
  const row = await clinic.securitySettingsOrDefaults(db, clinicId);
  const settings: SecuritySettings = {
    password_strength: row.password_strength as SecuritySettings['password_strength'],
    password_renewal_interval: row.password_renewal_interval,
    password_renewal_period: row.password_renewal_period as SecuritySettings['password_renewal_period'],
    user: row.user_scope as SecuritySettings['user'],
    logout_time_interval: row.logout_time_interval,
    logout_time_period: row.logout_time_period as SecuritySettings['logout_time_period'],
    two_factor_roles: row.two_factor_roles as SecuritySettings['two_factor_roles'],
    remember_device_days: row.remember_device_days,
  };
  if (row.user_scope === 'several') settings.users = await clinic.settingsUserIdsByName(db, clinicId);
  return settings;
}

/** Bounds that keep one setting from locking out the whole clinic (issue 27, defect 9); 422 otherwise. */
function assertWithinBounds(body: SecuritySettings): void {
  const errors: Record<string, MessageKey[]> = {};
  if (!withinBounds(body.password_renewal_interval, body.password_renewal_period, RENEWAL_BOUNDS)) {
    errors.password_renewal_interval = ['clinic.renewal_out_of_bounds'];
  }
  if (!withinBounds(body.logout_time_interval, body.logout_time_period, IDLE_LOGOUT_BOUNDS)) {
    errors.logout_time_interval = ['clinic.idle_logout_out_of_bounds'];
  }
  if (Object.keys(errors).length) throw invalid(errors);
}

/** With `several`, the listed ids must be a non-empty list of this clinic's users (422 otherwise). */
async function chosenUsers(db: Queryable, clinicId: string, scope: string, ids: string[] | undefined): Promise<string[]> {
  if (scope !== 'several') return [];
  if (!ids?.length) throw invalid({ users: ['validation.required'] });
  const unique = [...new Set(ids)];
  const found = await users.clinicUserIds(db, clinicId, unique);
  if (found.length !== unique.length) throw invalid({ users: ['clinic.unknown_users'] });
  return unique;
}

export const getSecuritySettings = (ctx: AppContext, actor: Actor): Promise<SecuritySettings> => settingsOf(ctx.db, actor.clinicId);

export async function updateSecuritySettings(ctx: AppContext, actor: Actor, body: SecuritySettings): Promise<SecuritySettings> {
  assertWithinBounds(body);
  const chosen = await chosenUsers(ctx.db, actor.clinicId, body.user, body.users);
  const now = ctx.clock.now();
  const before = await settingsOf(ctx.db, actor.clinicId);
  // New renewal rules give the passwords they make overdue a grace period (RENEWAL_GRACE_MS).
  const renewalChanged =
    body.password_renewal_interval !== null &&
    (body.password_renewal_interval !== before.password_renewal_interval ||
      body.password_renewal_period !== before.password_renewal_period ||
      body.user !== before.user ||
      [...chosen].sort().join() !== [...(before.users ?? [])].sort().join());
  await ctx.db.transaction().execute(async (tx) => {
    await clinic.updateSecuritySettings(tx, actor.clinicId, {
      password_strength: body.password_strength,
      password_renewal_interval: body.password_renewal_interval,
      password_renewal_period: body.password_renewal_period,
      user_scope: body.user,
      logout_time_interval: body.logout_time_interval,
      logout_time_period: body.logout_time_period,
      // Left out, the two-factor settings stay as they are (clients that know only the specification's fields).
      ...(body.two_factor_roles && { two_factor_roles: body.two_factor_roles }),
      ...(body.remember_device_days !== undefined && { remember_device_days: body.remember_device_days }),
      ...(renewalChanged && { renewal_changed_at: now }),
      updated_at: now,
    });
    await clinic.replaceSettingsUsers(tx, actor.clinicId, chosen);
    await audit(tx, actor, {
      action: 'clinic.settings_update',
      outcome: 'success',
      targetType: 'clinic',
      targetId: actor.clinicId,
      detail: {
        password_strength: body.password_strength,
        password_renewal: [body.password_renewal_interval, body.password_renewal_period],
        user: body.user,
        users: chosen,
        logout_time: [body.logout_time_interval, body.logout_time_period],
        two_factor_roles: body.two_factor_roles ?? before.two_factor_roles,
        remember_device_days: body.remember_device_days ?? before.remember_device_days,
      },
    });
  });
  return settingsOf(ctx.db, actor.clinicId);
}

/** What saving `body` would do: how many active users' passwords it makes overdue (the actor's too?), and their grace. */
export async function previewSecuritySettings(ctx: AppContext, actor: Actor, body: SecuritySettings): Promise<SecuritySettingsPreviewResponseData> {
  assertWithinBounds(body);
  const chosen = await chosenUsers(ctx.db, actor.clinicId, body.user, body.users);
  const renewalMs = periodMs(body.password_renewal_interval, body.password_renewal_period);
  const now = ctx.clock.now();
  const overdue =
    renewalMs === null
      ? []
      : await users.activeUsersWithPasswordsBefore(ctx.db, actor.clinicId, new Date(now.getTime() - renewalMs), body.user === 'several' ? chosen : undefined);
  return {
    overdue: overdue.length,
    includesYou: overdue.includes(actor.userId),
    graceUntil: overdue.length ? new Date(now.getTime() + RENEWAL_GRACE_MS).toISOString() : null,
  };
}

/** Password renewal off for the clinic. */
export async function stopPasswordRenewal(ctx: AppContext, actor: Actor): Promise<SecuritySettings> {
  await settingsOf(ctx.db, actor.clinicId);
  await ctx.db.transaction().execute(async (tx) => {
    await clinic.updateSecuritySettings(tx, actor.clinicId, { password_renewal_interval: null, updated_at: ctx.clock.now() });
    await audit(tx, actor, { action: 'clinic.stop_password_renewal', outcome: 'success', targetType: 'clinic', targetId: actor.clinicId });
  });
  return settingsOf(ctx.db, actor.clinicId);
}

/**
 * Forces new passwords on the clinic's users (all, or those chosen) who have had one (invited users set theirs
 * when they accept), never on the acting IT admin. The password stops working at once (a leaked one must not
 * sign in to "change" itself): cleared, the sessions ended, and each active user sent a link to choose a new one.
 */
export async function forcePasswordReset(ctx: AppContext, actor: Actor, body: ForceResetPassword): Promise<void> {
  const chosen = await chosenUsers(ctx.db, actor.clinicId, body.user, body.users);
  const now = ctx.clock.now();
  const targets = await users.acceptedUsers(ctx.db, actor.clinicId, actor.userId, body.user === 'several' ? chosen : undefined);
  const ids = targets.map((t) => t.id);
  if (!ids.length) return;
  const links = await ctx.db.transaction().execute(async (tx) => {
    await users.clearPasswords(tx, ids, now);
    await endUserSessions(tx, ids, 'forced_reset', now);
    await audit(tx, actor, {
      action: 'clinic.force_password_reset',
      outcome: 'success',
      targetType: 'clinic',
      targetId: actor.clinicId,
      detail: { scope: body.user, users: ids },
    });
    const issued: { target: (typeof targets)[number]; token: string }[] = [];
    for (const target of targets.filter((t) => t.status === 'active')) {
      issued.push({ target, token: await issueResetLink(tx, target.id, now, FORCED_RESET_LINK_MS) });
    }
    return issued;
  });
  const name = await clinic.clinicName(ctx.db, actor.clinicId);
  for (const { target, token } of links) {
    const lang = target.lang === 'de' ? 'de' : 'en';
    const params = {
      name: `${target.first_name} ${target.last_name}`.trim(),
      clinic: name,
      link: resetLinkUrl(ctx.config.publicUrl, token),
      hours: FORCED_RESET_LINK_MS / HOUR_MS,
      signIn: `${ctx.config.publicUrl}/sign-in`,
    };
    await ctx.mailer.send({
      to: target.email,
      subject: translate(lang, 'mail.force_reset.subject', params),
      text: translate(lang, 'mail.force_reset.body', params),
    });
  }
}
