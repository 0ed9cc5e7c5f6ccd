// The device credential's security handler (x-roles `device`, issue 29) and the rate limit of device calls.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { deviceByCredential } from '../repositories/devices';
import { DEVICE_CREDENTIAL, type DeviceCaller } from '../services/device-sync';
import { bearerToken } from './authenticate';
import { hashToken } from './tokens';

declare module 'fastify' {
  interface FastifyRequest {
    device?: DeviceCaller;
  }
}

/** Calls one device may make per minute (every operation of `device` role counted): a heartbeat every 10 s is 6. */
export const DEVICE_CALLS_PER_MINUTE = 120;
const WINDOW_MS = 60_000;

/**
 * Counts a device's calls per minute in this process (a fixed window per device). The key is the device the
 * credential names, known only after this module's authentication, and the refusal is the contract's 429
 * envelope in the caller's language; several server processes each count their own share.
 */
export class DeviceRateLimit {
  private readonly windows = new Map<string, { start: number; calls: number }>();

  constructor(private readonly limit = DEVICE_CALLS_PER_MINUTE) {}

  /** Seconds until the device may call again, or 0 when this call is within its limit (and counted). */
  take(deviceId: string, now: number): number {
    let window = this.windows.get(deviceId);
    if (!window || now - window.start >= WINDOW_MS || now < window.start) {
      // Windows that ended are dropped as they are met, so the map holds the devices of the last minute.
      if (this.windows.size > 10_000) this.prune(now);
      window = { start: now, calls: 0 };
      this.windows.set(deviceId, window);
    }
    if (window.calls >= this.limit) return Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
    window.calls += 1;
    return 0;
  }

  private prune(now: number) {
    for (const [id, window] of this.windows) if (now - window.start >= WINDOW_MS) this.windows.delete(id);
  }
}

const limits = new WeakMap<AppContext, DeviceRateLimit>();

export const deviceUnauthorized = () => new HttpError(401, 'device.unauthenticated', 'device.unauthenticated');

/** The device whose credential the request carries, within its rate limit; 401 for none, unknown or revoked. */
export async function authenticateDevice(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const token = bearerToken(request);
  if (!token || !DEVICE_CREDENTIAL.test(token)) throw deviceUnauthorized();
  const credentialHash = hashToken(token);
  const device = await deviceByCredential(ctx.db, credentialHash);
  if (!device) throw deviceUnauthorized();
  let limit = limits.get(ctx);
  if (!limit) limits.set(ctx, (limit = new DeviceRateLimit()));
  const retryAfter = limit.take(device.id, ctx.clock.now().getTime());
  if (retryAfter > 0) {
    throw new HttpError(429, 'device.rate_limited', 'device.rate_limited', { seconds: retryAfter }, {}, { retryAfter }, { 'Retry-After': String(retryAfter) });
  }
  request.device = { ...device, credentialHash, ip: request.ip ?? null, lang: request.lang };
}

/** A token on a device operation that is neither a device's nor a signed-in user's: the device's 401. */
export function asDeviceRefusal(error: unknown): never {
  throw error instanceof HttpError && error.statusCode === 401 ? deviceUnauthorized() : error;
}

/** Is this request a device's (a device credential, not a user's token)? Decides which authentication runs. */
export const carriesDeviceCredential = (request: FastifyRequest): boolean => DEVICE_CREDENTIAL.test(bearerToken(request) ?? '');
