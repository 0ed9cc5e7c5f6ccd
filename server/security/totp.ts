// TOTP codes (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of clock drift either way) as an authenticator
// app makes them, with otpauth's arithmetic: a new secret, its otpauth URI, which time step a typed code matches,
// and the current code (for the tests and the journeys, which sign in as the app would). No state: the account's
// (which step was taken last) is server/services/two-factor.ts.
import { Secret, TOTP } from 'otpauth';

const ISSUER = 'Macula Planner';
const PERIOD_SECONDS = 30;
/** A code of the step before or after the server's is still taken (a phone's clock a little off). */
const DRIFT_STEPS = 1;

const totpOf = (secret: string, label: string) =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** A new secret of 160 bits (RFC 4226 §4 recommends them), base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth URI an authenticator app reads from the QR code. */
export const totpUri = (secret: string, email: string): string => totpOf(secret, email).toString();

/** Digits only: apps show codes as "492 039". */
export const normalCode = (code: string): string => code.replace(/[\s-]/g, '');

/**
 * The time step of `code` for this secret at `now`, or null when it matches none within the drift. A step at or
 * before `lastStep` is refused: each code works once.
 */
export function matchingStep(secret: string, code: string, now: Date, lastStep: number | null): number | null {
  const digits = normalCode(code);
  if (!/^\d{6}$/.test(digits)) return null;
  const timestamp = now.getTime();
  const delta = totpOf(secret, '').validate({ token: digits, timestamp, window: DRIFT_STEPS });
  if (delta === null) return null;
  const step = Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** The current code of a secret (tests and the seed's demo accounts only sign in with it). */
export const currentCode = (secret: string, now: Date): string => totpOf(secret, '').generate({ timestamp: now.getTime() });
