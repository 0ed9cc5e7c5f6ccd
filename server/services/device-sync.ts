// Devices as clients of the API (issue 29; docs/architecture.md and docs/deployment.md, "Connecting the lasers").
// An IT admin adds a device and is shown a one-time enrolment code (15 minutes, one exchange); the device's
// sync app exchanges it for a credential of its own (never a user's), kept as a SHA-256 hash and revocable.
// The sync app then reports itself by heartbeat: Online from a heartbeat on, Offline after a documented
// silence (swept by `markSilentDevicesOffline`), and the IT admins' devices screen follows live.
import { randomInt } from 'node:crypto';
import type { Device } from '../../generated/model/device';
import type { DeviceInput } from '../../generated/model/deviceInput';
import type { EnrolmentCode } from '../../generated/model/enrolmentCode';
import type { Actor, Origin } from '../actor';
import type { AppContext } from '../context';
import { HttpError, notFound } from '../http/errors';
import { announce, event } from '../realtime/announce';
import * as devices from '../repositories/devices';
import { assertNotThrottled, clearFailures, failAndSlowDown, type ThrottleRule } from '../security/throttle';
import { hashToken, newToken } from '../security/tokens';
import { audit } from './audit';
import { toDevice } from './laser-profiles';

/** How long an enrolment code can be exchanged. */
export const ENROLMENT_CODE_MINUTES = 15;
const CODE_TTL_MS = ENROLMENT_CODE_MINUTES * 60_000;

// Crockford's base 32: no I, L, O or U, so a code read aloud or typed from a screen is not misread.
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 10;

/**
 * Wrong codes from one address: ten an hour, then locks of 1, 2, 4, 8, 15 minutes. A code has 50 bits and lives
 * 15 minutes: guessing one is hopeless at this pace.
 */
export const ENROLMENT_RULE: ThrottleRule = { limit: 10, windowMs: 60 * 60_000, lockMs: 15 * 60_000, backoffMs: 60_000 };
const enrolmentKey = (ip: string | null) => `enrol:${ip ?? 'unknown'}`;

/** A new code, `XXXXX-XXXXX`. */
export function newEnrolmentCode(): string {
  const chars = Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/**
 * A code as typed, in the one form that is hashed: upper case, without spaces and hyphens, with the letters
 * Crockford reads as digits (I and L as 1, O as 0). Null when it cannot be a code.
 */
export function normalEnrolmentCode(typed: string): string | null {
  const code = typed
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0');
  return code.length === CODE_LENGTH && [...code].every((char) => CODE_ALPHABET.includes(char)) ? code : null;
}

const hashCode = (normal: string) => hashToken(`enrolment:${normal}`);

/** The credential a sync app authenticates with: `mpd_` and 256 random bits. */
export const DEVICE_CREDENTIAL = /^mpd_[A-Za-z0-9_-]{43}$/;
const newCredential = () => `mpd_${newToken()}`;

function issueCode(ctx: AppContext): { code: string; hash: string; expiresAt: Date } {
  const code = newEnrolmentCode();
  return { code, hash: hashCode(normalEnrolmentCode(code)!), expiresAt: new Date(ctx.clock.now().getTime() + CODE_TTL_MS) };
}

const changed = (ctx: AppContext, clinicId: string, ids: string[]) => announce(ctx, [event('devices.changed', clinicId, { deviceIds: ids })]);

export interface DeviceWithCode {
  device: Device;
  enrolment: EnrolmentCode;
}

/** Adds a laser system to the clinic with its first enrolment code; 409 when the serial is taken. */
export async function addDevice(ctx: AppContext, actor: Actor, input: DeviceInput): Promise<DeviceWithCode> {
  const issued = issueCode(ctx);
  const row = await devices.insertDevice(ctx.db, {
    clinicId: actor.clinicId,
    deviceId: input.deviceId,
    opticalHeadId: input.opticalHeadId,
    camera: input.camera.trim(),
    description: input.description?.trim() || null,
    codeHash: issued.hash,
    codeExpiresAt: issued.expiresAt,
  });
  if (!row) throw new HttpError(409, 'device.duplicate', 'request.invalid', {}, { deviceId: ['device.duplicate'] });
  await audit(ctx.db, actor, { action: 'device.added', outcome: 'success', targetType: 'device', targetId: row.id, detail: { deviceId: row.device_id } });
  changed(ctx, actor.clinicId, [row.id]);
  return { device: toDevice(row), enrolment: { code: issued.code, expiresAt: issued.expiresAt.toISOString() } };
}

/** A new one-time code for a device of the clinic; an open one stops working. 404 for another clinic's device. */
export async function issueEnrolmentCode(ctx: AppContext, actor: Actor, id: string): Promise<DeviceWithCode> {
  const issued = issueCode(ctx);
  const row = await devices.setEnrolmentCode(ctx.db, actor.clinicId, id, issued.hash, issued.expiresAt);
  if (!row) throw notFound();
  await audit(ctx.db, actor, { action: 'device.enrolment_code_issued', outcome: 'success', targetType: 'device', targetId: row.id, detail: { deviceId: row.device_id } });
  changed(ctx, actor.clinicId, [row.id]);
  return { device: toDevice(row), enrolment: { code: issued.code, expiresAt: issued.expiresAt.toISOString() } };
}

/** The device's credential (and any open code) stops working at once; it is Offline. */
export async function revokeDeviceCredential(ctx: AppContext, actor: Actor, id: string): Promise<Device> {
  const row = await devices.revokeCredential(ctx.db, actor.clinicId, id, ctx.clock.now());
  if (!row) throw notFound();
  await audit(ctx.db, actor, { action: 'device.credential_revoked', outcome: 'success', targetType: 'device', targetId: row.id, detail: { deviceId: row.device_id } });
  changed(ctx, actor.clinicId, [row.id]);
  return toDevice(row);
}

export interface DeviceTiming {
  heartbeatSeconds: number;
  offlineAfterSeconds: number;
}

const timingOf = (ctx: AppContext): DeviceTiming => ({
  heartbeatSeconds: ctx.config.devices.heartbeatSeconds,
  offlineAfterSeconds: ctx.config.devices.offlineAfterSeconds,
});

/**
 * The sync app exchanges its code for a credential. A wrong, used or expired code is 401 and counts against the
 * caller's address (429 once locked); the exchange is audited either way.
 */
export async function enrolDevice(
  ctx: AppContext,
  origin: Origin,
  typedCode: string,
  syncAppVersion: string,
): Promise<{ credential: string; id: string; deviceId: string } & DeviceTiming> {
  const key = enrolmentKey(origin.ip);
  await assertNotThrottled(ctx, [key]);
  const normal = normalEnrolmentCode(typedCode);
  const credential = newCredential();
  const row = normal ? await devices.exchangeEnrolmentCode(ctx.db, hashCode(normal), hashToken(credential), syncAppVersion, ctx.clock.now()) : undefined;
  if (!row) {
    await audit(ctx.db, origin, { action: 'device.enrolled', outcome: 'failure', actorRole: 'device', detail: { reason: 'code' } });
    await failAndSlowDown(ctx, [[key, ENROLMENT_RULE]]);
    throw new HttpError(401, 'device.enrolment_invalid', 'device.enrolment_invalid');
  }
  await clearFailures(ctx, key);
  await audit(ctx.db, origin, {
    action: 'device.enrolled',
    outcome: 'success',
    clinicId: row.clinic_id,
    actorRole: 'device',
    targetType: 'device',
    targetId: row.id,
    detail: { deviceId: row.device_id, syncAppVersion },
  });
  changed(ctx, row.clinic_id, [row.id]);
  return { credential, id: row.id, deviceId: row.device_id, ...timingOf(ctx) };
}

/** A device as its own credential names it (server/security/device-auth.ts). */
export interface DeviceCaller extends Origin {
  id: string;
  clinicId: string;
  deviceId: string;
  credentialHash: string;
}

/** The audit source of a device's call: its address, no user; the entry names the device. */
export const deviceEntry = (device: DeviceCaller) => ({ clinicId: device.clinicId, actorRole: 'device', targetType: 'device', targetId: device.id });

/** A heartbeat: the device is Online, seen now; the screens are told when it was Offline. */
export async function recordHeartbeat(ctx: AppContext, device: DeviceCaller, syncAppVersion: string) {
  const now = ctx.clock.now();
  const seen = await devices.recordHeartbeat(ctx.db, device.id, device.credentialHash, syncAppVersion, now);
  // Revoked between authentication and now.
  if (!seen) throw new HttpError(401, 'device.unauthenticated', 'device.unauthenticated');
  if (seen.cameOnline) {
    await audit(ctx.db, device, { ...deviceEntry(device), action: 'device.online', outcome: 'success', detail: { deviceId: device.deviceId, syncAppVersion } });
    changed(ctx, device.clinicId, [device.id]);
  }
  return { id: device.id, deviceId: device.deviceId, syncAppStatus: devices.ONLINE, lastSeenAt: now.toISOString(), ...timingOf(ctx) };
}

/**
 * Marks Offline the devices not heard from for `offlineAfterSeconds`, audits each and tells their clinics'
 * screens. Safe to run in several processes at once: each device is marked by one of them.
 */
export async function markSilentDevicesOffline(ctx: AppContext): Promise<number> {
  const silentSince = new Date(ctx.clock.now().getTime() - ctx.config.devices.offlineAfterSeconds * 1000);
  const silent = await devices.markSilentOffline(ctx.db, silentSince);
  const byClinic = new Map<string, string[]>();
  for (const { id, clinic_id: clinicId } of silent) {
    byClinic.set(clinicId, [...(byClinic.get(clinicId) ?? []), id]);
    await audit(ctx.db, null, { action: 'device.offline', outcome: 'success', clinicId, actorRole: 'system', targetType: 'device', targetId: id, detail: { silentSince: silentSince.toISOString() } });
  }
  for (const [clinicId, ids] of byClinic) changed(ctx, clinicId, ids);
  return silent.length;
}
