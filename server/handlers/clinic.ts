// The clinic's administration (IT admins): security settings and their preview, forced password resets, the
// devices and their laser profiles, and the billing usage. The rules are in the services named below.
import type { ForceResetPassword } from '../../generated/model/forceResetPassword';
import type { GetBillingUsageParams } from '../../generated/model/getBillingUsageParams';
import type { LaserProfileInput } from '../../generated/model/laserProfileInput';
import type { ListDevicesParams } from '../../generated/model/listDevicesParams';
import type { SecuritySettings } from '../../generated/model/securitySettings';
import type { AppContext } from '../context';
import { actorOf } from '../http/actor';
import type { Handler, Handlers } from '../http/handler';
import { done, success } from '../http/handler';
import { translate } from '../i18n';
import { billingUsage } from '../services/billing';
import { listDevices as devicesOf } from '../services/devices';
import { updateLaserProfile } from '../services/laser-profiles';
import * as security from '../services/security-settings';

export function clinicHandlers(ctx: AppContext) {
  const getClinicSettings: Handler = async (request) => success(await security.getSecuritySettings(ctx, actorOf(request)));

  const updateClinicSettings: Handler<{ Body: SecuritySettings }> = async (request) => {
    const settings = await security.updateSecuritySettings(ctx, actorOf(request), request.body);
    return success(settings, translate(request.lang, 'clinic.settings_updated'));
  };

  const previewClinicSettings: Handler<{ Body: SecuritySettings }> = async (request) =>
    success(await security.previewSecuritySettings(ctx, actorOf(request), request.body));

  const forceResetPassword: Handler<{ Body: ForceResetPassword }> = async (request) => {
    await security.forcePasswordReset(ctx, actorOf(request), request.body);
    return done(translate(request.lang, 'clinic.password_reset_forced'));
  };

  const stopRenewPassword: Handler = async (request) => {
    const settings = await security.stopPasswordRenewal(ctx, actorOf(request));
    return success(settings, translate(request.lang, 'clinic.settings_updated'));
  };

  const listDevices: Handler<{ Querystring: ListDevicesParams }> = async (request) => {
    const { data, meta } = await devicesOf(ctx, actorOf(request), request.query);
    return { status: 'Success', data, meta };
  };

  const updateDeviceLaserProfile: Handler<{ Params: { id: string }; Body: LaserProfileInput }> = async (request) => {
    const device = await updateLaserProfile(ctx, actorOf(request), request.params.id, request.body.laserProfile);
    return success(device, translate(request.lang, 'device.laser_profile_saved'));
  };

  const getBillingUsage: Handler<{ Querystring: GetBillingUsageParams }> = async (request) =>
    success(await billingUsage(ctx, actorOf(request), request.query.from, request.query.to));

  return { getClinicSettings, updateClinicSettings, previewClinicSettings, forceResetPassword, stopRenewPassword, listDevices, updateDeviceLaserProfile, getBillingUsage } satisfies Handlers;
}
