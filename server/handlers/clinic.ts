// The clinic's security settings (password strength, renewal, idle logout), forced password resets and
// the devices list (IT admins). Everything is scoped to the caller's clinic.
import type { FastifyRequest } from 'fastify';
import type { BillingUsage } from '../../generated/model/billingUsage';
import type { BillingUsageRow } from '../../generated/model/billingUsageRow';
import type { GetBillingUsageParams } from '../../generated/model/getBillingUsageParams';
import type { ForceResetPassword } from '../../generated/model/forceResetPassword';
import type { ListDevicesParams } from '../../generated/model/listDevicesParams';
import type { SecuritySettings } from '../../generated/model/securitySettings';
import type { SecuritySettingsPreviewResponseData } from '../../generated/model/securitySettingsPreviewResponseData';
import type { AppContext } from '../context';
import type { LaserProfileInput } from '../../generated/model/laserProfileInput';
import type { Database } from '../db/tables';
import { invalid, unauthorized } from '../http/errors';
import type { Handler, Handlers } from '../http/handler';
import { done, success } from '../http/handler';
import { translate, type MessageKey } from '../i18n';
import { IDLE_LOGOUT_BOUNDS, periodMs, RENEWAL_BOUNDS, withinBounds } from '../../src/domain/security/setting-bounds';
import { RENEWAL_GRACE_MS } from '../security/policy';
import { audit } from '../services/audit';
import { containsPattern, pageMeta } from '../db/listing';
import { sql } from 'kysely';
import { endUserSessions } from '../services/sessions';
import { FORCED_RESET_LINK_MS, issueResetLink, resetLinkUrl } from '../services/reset-links';
import { toDevice, updateLaserProfile } from '../services/laser-profiles';

const HOUR_MS = 60 * 60 * 1000;

function caller(request: FastifyRequest) {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/**
 * The clinic's settings row, created with the table defaults when missing: standard strength, no
 * renewal, all users, no idle logout. These are the rules the server applies without a row
 * (DEFAULT_POLICY), so reading the settings never changes what applies.
 */
async function settingsOf(db: Database, clinicId: string): Promise<SecuritySettings> {
  await db
    .insertInto('security_settings')
    .values({ clinic_id: clinicId })
    .onConflict((oc) => oc.column('clinic_id').doNothing())
    .execute();
  const row = await db.selectFrom('security_settings').selectAll().where('clinic_id', '=', clinicId).executeTakeFirstOrThrow();
  const settings: SecuritySettings = {
    password_strength: row.password_strength as SecuritySettings['password_strength'],
    password_renewal_interval: row.password_renewal_interval,
    password_renewal_period: row.password_renewal_period as SecuritySettings['password_renewal_period'],
    user: row.user_scope as SecuritySettings['user'],
    logout_time_interval: row.logout_time_interval,
    logout_time_period: row.logout_time_period as SecuritySettings['logout_time_period'],
  };
  if (row.user_scope === 'several') {
    const users = await db
      .selectFrom('security_settings_users as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select('s.user_id')
      .where('s.clinic_id', '=', clinicId)
      .where('u.clinic_id', '=', clinicId)
      .orderBy('u.last_name')
      .orderBy('u.first_name')
      .orderBy('u.id')
      .execute();
    settings.users = users.map((u) => u.user_id);
  }
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
async function chosenUsers(db: Database, clinicId: string, scope: string, ids: string[] | undefined): Promise<string[]> {
  if (scope !== 'several') return [];
  if (!ids?.length) throw invalid({ users: ['validation.required'] });
  const unique = [...new Set(ids)];
  const found = await db.selectFrom('users').select('id').where('clinic_id', '=', clinicId).where('id', 'in', unique).execute();
  if (found.length !== unique.length) throw invalid({ users: ['clinic.unknown_users'] });
  return unique;
}

/** The longest billing range one request may ask for. */
const BILLING_MAX_MONTHS = 36;

/** `YYYY-MM` → the month's index since year 0 (the contract's pattern has checked the form). */
const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const monthStart = (index: number) => new Date(Date.UTC(Math.floor(index / 12), index % 12, 1));

/**
 * Usage per month (UTC) and laser system: exams uploaded are the clinic's sessions by their creation,
 * plans signed off and parameter sets produced are the plan changes `signed_off` and `parameter_set_packed`
 * (a plan signed off again after a failed packing counts twice: the physician did sign it twice).
 */
async function billingUsage(db: Database, clinicId: string, from: string, to: string): Promise<BillingUsage> {
  const start = monthStart(monthIndex(from));
  const end = monthStart(monthIndex(to) + 1);
  const month = (column: string) => sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM')`;
  const exams = await db
    .selectFrom('treatments as t')
    .select([month('t.created_at').as('month'), 't.device_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('t.clinic_id', '=', clinicId)
    .where('t.created_at', '>=', start)
    .where('t.created_at', '<', end)
    .groupBy([sql`1`, 't.device_id'])
    .execute();
  const changes = await db
    .selectFrom('plan_changes as c')
    .innerJoin('treatments as t', 't.id', 'c.treatment_id')
    .select([month('c.at').as('month'), 't.device_id', 'c.action', (eb) => eb.fn.countAll<number>().as('n')])
    .where('t.clinic_id', '=', clinicId)
    .where('c.action', 'in', ['signed_off', 'parameter_set_packed'])
    .where('c.at', '>=', start)
    .where('c.at', '<', end)
    .groupBy([sql`1`, 't.device_id', 'c.action'])
    .execute();

  const rows = new Map<string, BillingUsageRow>();
  const rowOf = (m: string, deviceId: string | null) => {
    const key = `${m}\u0000${deviceId ?? ''}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { month: m, deviceId, examsUploaded: 0, plansSignedOff: 0, parameterSetsProduced: 0 }));
    return row;
  };
  for (const e of exams) rowOf(e.month, e.device_id).examsUploaded += Number(e.n);
  for (const c of changes) {
    const row = rowOf(c.month, c.device_id);
    if (c.action === 'signed_off') row.plansSignedOff += Number(c.n);
    else row.parameterSetsProduced += Number(c.n);
  }
  const sorted = [...rows.values()].sort(
    (a, b) =>
      a.month.localeCompare(b.month) ||
      (a.deviceId === b.deviceId ? 0 : a.deviceId === null ? 1 : b.deviceId === null ? -1 : a.deviceId.localeCompare(b.deviceId)),
  );
  const totals = { examsUploaded: 0, plansSignedOff: 0, parameterSetsProduced: 0 };
  for (const row of sorted) {
    totals.examsUploaded += row.examsUploaded;
    totals.plansSignedOff += row.plansSignedOff;
    totals.parameterSetsProduced += row.parameterSetsProduced;
  }
  return { from, to, rows: sorted, totals };
}

export function clinicHandlers(ctx: AppContext): Handlers {
  const { db } = ctx;

  const getClinicSettings: Handler = async (request) => {
    return success(await settingsOf(db, caller(request).clinicId));
  };

  const updateClinicSettings: Handler<{ Body: SecuritySettings }> = async (request) => {
    const auth = caller(request);
    const body = request.body;
    assertWithinBounds(body);
    const users = await chosenUsers(db, auth.clinicId, body.user, body.users);
    const now = ctx.clock.now();
    const before = await settingsOf(db, auth.clinicId);
    // New renewal rules give the passwords they make overdue a grace period (RENEWAL_GRACE_MS).
    const renewalChanged =
      body.password_renewal_interval !== null &&
      (body.password_renewal_interval !== before.password_renewal_interval ||
        body.password_renewal_period !== before.password_renewal_period ||
        body.user !== before.user ||
        [...users].sort().join() !== [...(before.users ?? [])].sort().join());
    await db.transaction().execute(async (tx) => {
      await tx
        .updateTable('security_settings')
        .set({
          password_strength: body.password_strength,
          password_renewal_interval: body.password_renewal_interval,
          password_renewal_period: body.password_renewal_period,
          user_scope: body.user,
          logout_time_interval: body.logout_time_interval,
          logout_time_period: body.logout_time_period,
          ...(renewalChanged && { renewal_changed_at: now }),
          updated_at: now,
        })
        .where('clinic_id', '=', auth.clinicId)
        .execute();
      await tx.deleteFrom('security_settings_users').where('clinic_id', '=', auth.clinicId).execute();
      if (users.length) {
        await tx
          .insertInto('security_settings_users')
          .values(users.map((user_id) => ({ clinic_id: auth.clinicId, user_id })))
          .execute();
      }
      await audit(tx, request, {
        action: 'clinic.settings_update',
        outcome: 'success',
        targetType: 'clinic',
        targetId: auth.clinicId,
        detail: {
          password_strength: body.password_strength,
          password_renewal: [body.password_renewal_interval, body.password_renewal_period],
          user: body.user,
          users,
          logout_time: [body.logout_time_interval, body.logout_time_period],
        },
      });
    });
    return success(await settingsOf(db, auth.clinicId), translate(request.lang, 'clinic.settings_updated'));
  };

  const previewClinicSettings: Handler<{ Body: SecuritySettings }> = async (request) => {
    const auth = caller(request);
    const body = request.body;
    assertWithinBounds(body);
    const users = await chosenUsers(db, auth.clinicId, body.user, body.users);
    const renewalMs = periodMs(body.password_renewal_interval, body.password_renewal_period);
    const now = ctx.clock.now();
    let overdue: { id: string }[] = [];
    if (renewalMs !== null) {
      let query = db
        .selectFrom('users')
        .select('id')
        .where('clinic_id', '=', auth.clinicId)
        .where('status', '=', 'active')
        .where('password_changed_at', '<=', new Date(now.getTime() - renewalMs));
      if (body.user === 'several') query = query.where('id', 'in', users);
      overdue = await query.execute();
    }
    const data: SecuritySettingsPreviewResponseData = {
      overdue: overdue.length,
      includesYou: overdue.some((user) => user.id === auth.userId),
      graceUntil: overdue.length ? new Date(now.getTime() + RENEWAL_GRACE_MS).toISOString() : null,
    };
    return success(data);
  };

  const forceResetPassword: Handler<{ Body: ForceResetPassword }> = async (request) => {
    const auth = caller(request);
    const chosen = await chosenUsers(db, auth.clinicId, request.body.user, request.body.users);
    const now = ctx.clock.now();
    // Accounts that have had a password (invited users set theirs when they accept); never the calling IT admin.
    let query = db
      .selectFrom('users')
      .select(['id', 'email', 'first_name', 'last_name', 'status', 'lang'])
      .where('clinic_id', '=', auth.clinicId)
      .where('id', '!=', auth.userId)
      .where('invite_status', '=', 'accepted');
    if (request.body.user === 'several') query = query.where('id', 'in', chosen);
    const targets = await query.execute();
    const ids = targets.map((t) => t.id);
    if (!ids.length) return done(translate(request.lang, 'clinic.password_reset_forced'));
    // The password stops working at once (a leaked one must not sign in to "change" itself): cleared, the
    // sessions ended, and each active user sent a link to choose a new one.
    const links = await db.transaction().execute(async (tx) => {
      await tx.updateTable('users').set({ password_hash: null, must_change_password: true, updated_at: now }).where('id', 'in', ids).execute();
      await endUserSessions(tx, ids, 'forced_reset', now);
      await audit(tx, request, {
        action: 'clinic.force_password_reset',
        outcome: 'success',
        targetType: 'clinic',
        targetId: auth.clinicId,
        detail: { scope: request.body.user, users: ids },
      });
      const issued: { target: (typeof targets)[number]; token: string }[] = [];
      for (const target of targets.filter((t) => t.status === 'active')) {
        issued.push({ target, token: await issueResetLink(tx, target.id, now, FORCED_RESET_LINK_MS) });
      }
      return issued;
    });
    const clinic = await db.selectFrom('clinics').select('name').where('id', '=', auth.clinicId).executeTakeFirstOrThrow();
    for (const { target, token } of links) {
      const lang = target.lang === 'de' ? 'de' : 'en';
      const params = {
        name: `${target.first_name} ${target.last_name}`.trim(),
        clinic: clinic.name,
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
    return done(translate(request.lang, 'clinic.password_reset_forced'));
  };

  const stopRenewPassword: Handler = async (request) => {
    const auth = caller(request);
    await settingsOf(db, auth.clinicId);
    await db.transaction().execute(async (tx) => {
      await tx
        .updateTable('security_settings')
        .set({ password_renewal_interval: null, updated_at: ctx.clock.now() })
        .where('clinic_id', '=', auth.clinicId)
        .execute();
      await audit(tx, request, {
        action: 'clinic.stop_password_renewal',
        outcome: 'success',
        targetType: 'clinic',
        targetId: auth.clinicId,
      });
    });
    return success(await settingsOf(db, auth.clinicId), translate(request.lang, 'clinic.settings_updated'));
  };

  const listDevices: Handler<{ Querystring: ListDevicesParams }> = async (request) => {
    const auth = caller(request);
    const page = request.query.page ?? 1;
    const perPage = request.query.perPage ?? 20;
    let query = db.selectFrom('devices').where('clinic_id', '=', auth.clinicId);
    const search = request.query.search?.trim();
    if (search) {
      const pattern = containsPattern(search);
      query = query.where((eb) =>
        eb.or([
          eb('device_id', 'ilike', pattern),
          eb('optical_head_id', 'ilike', pattern),
          eb('camera', 'ilike', pattern),
          eb('description', 'ilike', pattern),
        ]),
      );
    }
    if (request.query.status === 'online') query = query.where('sync_app_status', '=', 'RUNNING');
    if (request.query.status === 'offline') query = query.where('sync_app_status', '!=', 'RUNNING');
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll()
      .orderBy('device_id')
      .orderBy('id')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    return { status: 'Success', data: rows.map(toDevice), meta: pageMeta({ page, perPage }, Number(total)) };
  };

  const updateDeviceLaserProfile: Handler<{ Params: { id: string }; Body: LaserProfileInput }> = async (request) => {
    const auth = caller(request);
    const { device, before } = await updateLaserProfile(ctx, auth, request.params.id, request.body.laserProfile);
    await audit(db, request, {
      action: 'device.laser_profile_updated',
      outcome: 'success',
      targetType: 'device',
      targetId: device.id,
      detail: { deviceId: device.deviceId, before, after: device.laserProfile },
    });
    return success(device, translate(request.lang, 'device.laser_profile_saved'));
  };

  const getBillingUsage: Handler<{ Querystring: GetBillingUsageParams }> = async (request) => {
    const auth = caller(request);
    const { from, to } = request.query;
    const span = monthIndex(to) - monthIndex(from) + 1;
    if (span < 1) throw invalid({ to: ['billing.range_reversed'] });
    if (span > BILLING_MAX_MONTHS) throw invalid({ to: ['billing.range_too_long'] });
    return success(await billingUsage(db, auth.clinicId, from, to));
  };

  return { getClinicSettings, updateClinicSettings, previewClinicSettings, forceResetPassword, stopRenewPassword, listDevices, updateDeviceLaserProfile, getBillingUsage };
}
