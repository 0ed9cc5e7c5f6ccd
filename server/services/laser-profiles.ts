// The laser profile of a clinic's device (issue 26): what it can deliver, entered by an IT admin from the
// maker's specification. Every session treated with the device is planned within it (clinical-safety.ts).
import type { Device } from '../../generated/model/device';
import type { EnrolmentState } from '../../generated/model/enrolmentState';
import { laserProfileProblems, type LaserProfile } from '../../src/domain/planning/clinical-limits';
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import type { DeviceRow } from '../db/tables';
import { HttpError, notFound } from '../http/errors';
import type { MessageKey } from '../i18n';
import { lockDevice, setLaserProfile } from '../repositories/clinic';
import { audit } from './audit';

const iso = (at: Date | string | null) => (at ? new Date(at).toISOString() : null);

/** Where the device's credential stands; an issued code stays `code_issued` after it expires (its expiry says so). */
function enrolmentOf(row: DeviceRow): EnrolmentState {
  if (row.enrolment_code_hash) return 'code_issued';
  if (row.credential_hash) return 'enrolled';
  return row.revoked_at ? 'revoked' : 'none';
}

export function toDevice(row: DeviceRow): Device {
  const online = row.sync_app_status === 'RUNNING';
  return {
    id: row.id,
    deviceId: row.device_id,
    opticalHeadId: row.optical_head_id,
    camera: row.camera,
    description: row.description,
    syncAppStatus: online ? 'RUNNING' : 'CONNECTION_FAILED',
    online,
    lastSeenAt: iso(row.last_seen_at),
    enrolment: enrolmentOf(row),
    enrolmentCodeExpiresAt: row.enrolment_code_hash ? iso(row.enrolment_expires_at) : null,
    enrolledAt: iso(row.enrolled_at),
    syncAppVersion: row.sync_app_version,
    laserProfile: row.laser_profile,
  };
}

/**
 * Saves a device's laser profile: 404 for another clinic's device, 422 naming each field whose range is
 * reversed or beyond what such a device delivers. The change is audited with the profile it had before.
 */
export async function updateLaserProfile(ctx: AppContext, actor: Actor, deviceId: string, profile: LaserProfile): Promise<Device> {
  const problems = laserProfileProblems(profile);
  if (problems.length) {
    const key: MessageKey = 'device.laser_profile_invalid';
    throw new HttpError(422, 'request.invalid', key, {}, Object.fromEntries(problems.map((path) => [`laserProfile.${path}`, [key]])));
  }
  const { device, before } = await ctx.db.transaction().execute(async (tx) => {
    const row = await lockDevice(tx, actor.clinicId, deviceId);
    if (!row) throw notFound();
    const updated = await setLaserProfile(tx, row.id, JSON.stringify(profile));
    return { device: toDevice(updated), before: row.laser_profile };
  });
  await audit(ctx.db, actor, {
    action: 'device.laser_profile_updated',
    outcome: 'success',
    targetType: 'device',
    targetId: device.id,
    detail: { deviceId: device.deviceId, before, after: device.laserProfile },
  });
  return device;
}
