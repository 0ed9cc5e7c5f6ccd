// Slowing and refusing repeated failures (sign-in, current-password checks, reset requests), per key.
// Sign-in guessing is counted three ways, so that nobody can lock colleagues out and no account can be
// guessed at leisure (the policy: docs/deployment.md, "Sign-in throttling"):
// - `login:<e-mail>|<address>`, one account from one address: a person mistyping, or someone guessing
//   one account from one place. Locks with back-off, and only that account from that address.
// - `account:<e-mail>`, one account from anywhere: guessing spread over many addresses.
// - `ip:<address>`, any accounts from one address: password spraying.
// The last two lock only addresses the account has never signed in from: the clinic's staff at their
// usual (often shared) address keep signing in while a stranger's guesses are held back.
// - `reauth:<user id>`, a signed-in user confirming with their password (sign-off, password change): fed
//   only by that user's own failures, so strangers' sign-in guesses never hold back a sign-off.
// Locks grow by back-off (1, 2, 4, 8, 15 minutes) instead of one long wall. Failures before a lock are
// slowed by a short growing delay. State lives in the `throttles` table, so several server instances
// share it and a restart does not forget it. All times come from the context clock.
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { signedInFromSince } from '../repositories/sessions';
import * as throttles from '../repositories/throttles';
import { verifyPassword } from './password-hash';

export interface ThrottleRule {
  /** Failures within the window that lock the key. */
  limit: number;
  /** Failures are counted from the first one for this long, then the count starts again. */
  windowMs: number;
  /** The lock (without back-off), or the longest lock (with back-off). */
  lockMs: number;
  /** Back-off: the first lock, doubled by each further failure up to `lockMs`; a lock that ends keeps the count. */
  backoffMs?: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** One account from one address: 5 wrong passwords, then locks of 1, 2, 4, 8, 15 minutes. */
export const PAIR_RULE: ThrottleRule = { limit: 5, windowMs: HOUR, lockMs: 15 * MINUTE, backoffMs: MINUTE };
/** One account from any addresses: 10 wrong passwords, then the same back-off (for unknown addresses). */
export const ACCOUNT_RULE: ThrottleRule = { limit: 10, windowMs: HOUR, lockMs: 15 * MINUTE, backoffMs: MINUTE };
/** Any accounts from one address: 30 wrong passwords, then the same back-off (for accounts new to it). */
export const ADDRESS_RULE: ThrottleRule = { limit: 30, windowMs: HOUR, lockMs: 15 * MINUTE, backoffMs: MINUTE };
/**
 * A signed-in user confirming with their password (sign-off, password change): ten wrong ones, then the same
 * back-off. A count of the user's own: failed sign-ins from elsewhere never hold back a physician's sign-off.
 */
export const REAUTH_RULE: ThrottleRule = { limit: 10, windowMs: HOUR, lockMs: 15 * MINUTE, backoffMs: MINUTE };
/** How long a successful sign-in makes its address known for the account. */
export const KNOWN_ADDRESS_MS = 90 * DAY;

const normalEmail = (email: string) => email.trim().toLowerCase();
export const accountKey = (email: string) => `account:${normalEmail(email)}`;
export const addressKey = (ip: string) => `ip:${ip}`;
export const pairKey = (email: string, ip: string) => `login:${normalEmail(email)}|${ip}`;
export const reauthKey = (userId: string) => `reauth:${userId}`;

/** How long the n-th failure locks a key under `rule` (0 below its limit). */
export function lockMsFor(rule: ThrottleRule, failures: number): number {
  if (failures < rule.limit) return 0;
  if (!rule.backoffMs) return rule.lockMs;
  return Math.min(rule.backoffMs * 2 ** Math.min(failures - rule.limit, 20), rule.lockMs);
}

/** The account has signed in from this address within KNOWN_ADDRESS_MS. */
export async function isKnownAddress(ctx: AppContext, userId: string | null, ip: string): Promise<boolean> {
  return signedInFromSince(ctx.db, userId, ip, new Date(ctx.clock.now().getTime() - KNOWN_ADDRESS_MS));
}

/** The keys a sign-in attempt is checked against and counted for. */
export function signInKeys(email: string, ip: string, knownAddress: boolean): { check: string[]; count: [string, ThrottleRule][] } {
  const count: [string, ThrottleRule][] = [
    [pairKey(email, ip), PAIR_RULE],
    [accountKey(email), ACCOUNT_RULE],
    [addressKey(ip), ADDRESS_RULE],
  ];
  // Every failure counts on all three; from an address the account knows only its own pair can hold it back.
  return { check: knownAddress ? [pairKey(email, ip)] : count.map(([key]) => key), count };
}

/** Failures before the first delay, the delay step and its cap. */
const FREE_FAILURES = 3;
const DELAY_STEP_MS = 100;
const DELAY_MAX_MS = 1000;

/** How long to hold the answer to the n-th failure in a window: 0 for the first few, then growing to 1 s. */
export function failureDelayMs(failures: number): number {
  if (failures <= FREE_FAILURES) return 0;
  return Math.min(DELAY_STEP_MS * (failures - FREE_FAILURES), DELAY_MAX_MS);
}

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function throttled(retryAfterSeconds: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return new HttpError(
    429,
    'auth.throttled',
    // Back-off locks start at one minute: "in 1 minute", not "in 1 minutes".
    minutes === 1 ? 'auth.throttled_minute' : 'auth.throttled',
    { minutes },
    {},
    { retryAfter: seconds },
    { 'Retry-After': String(seconds) },
  );
}

/** Seconds until the longest lock among `keys` ends, or 0 when none is locked. */
export async function lockedFor(ctx: AppContext, keys: string[]): Promise<number> {
  if (!keys.length) return 0;
  const now = ctx.clock.now();
  const until = Math.max(0, ...(await throttles.locksUntil(ctx.db, keys, now)).map((at) => at.getTime()));
  return until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : 0;
}

/** Throws the 429 envelope while any of `keys` is locked. */
export async function assertNotThrottled(ctx: AppContext, keys: string[]): Promise<void> {
  const seconds = await lockedFor(ctx, keys);
  if (seconds > 0) throw throttled(seconds);
}

/**
 * Counts one failure for `key` and locks it when the rule's limit is reached. A window that has run out,
 * or a lock that has passed, starts a new count. Returns the failures in the current window.
 */
export async function recordFailure(ctx: AppContext, key: string, rule: ThrottleRule): Promise<number> {
  const now = ctx.clock.now();
  const windowStart = new Date(now.getTime() - rule.windowMs);
  // Without back-off a lock that has ended starts a new count; with back-off the count goes on, so the
  // next failure locks for longer.
  const failures = await throttles.countFailure(ctx.db, key, now, windowStart, !rule.backoffMs);
  await pruneNowAndThen(ctx);
  const lockMs = lockMsFor(rule, failures);
  if (lockMs > 0) await throttles.lockKey(ctx.db, key, new Date(now.getTime() + lockMs));
  return failures;
}

// Rows whose window and lock have passed are deleted now and then (at most every 10 minutes per server),
// so keys made up by a client do not pile up.
const PRUNE_EVERY_MS = 10 * MINUTE;
const STALE_AFTER_MS = 24 * 60 * MINUTE;
const lastPrune = new WeakMap<AppContext, number>();

export async function pruneThrottles(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now();
  await throttles.deleteStaleKeys(ctx.db, new Date(now.getTime() - STALE_AFTER_MS), now);
}

async function pruneNowAndThen(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now().getTime();
  const last = lastPrune.get(ctx);
  if (last !== undefined && now - last < PRUNE_EVERY_MS && now >= last) return;
  lastPrune.set(ctx, now);
  await pruneThrottles(ctx);
}

/** Forgets the failures of `key` (after a success). */
export async function clearFailures(ctx: AppContext, key: string): Promise<void> {
  await throttles.deleteKey(ctx.db, key);
}

/** Forgets an account's failures from everywhere (after a password reset). */
export async function clearAccountFailures(ctx: AppContext, email: string): Promise<void> {
  await throttles.deleteKeyAndPrefixed(ctx.db, accountKey(email), pairKey(email, ''));
}

/**
 * Records a failure for every key with its rule and holds the answer for the delay the most-failed key
 * calls for (the 429 comes on the next attempt, once a key is locked).
 */
export async function failAndSlowDown(ctx: AppContext, entries: [string, ThrottleRule][]): Promise<void> {
  let failures = 0;
  for (const [key, rule] of entries) failures = Math.max(failures, await recordFailure(ctx, key, rule));
  const delay = failureDelayMs(failures);
  if (delay > 0) await pause(delay);
}

/**
 * Is `password` the signed-in user's own? Counted on the user's re-authentication key only (REAUTH_RULE):
 * 429 once it is locked; a right password clears it.
 */
export async function confirmPassword(ctx: AppContext, user: { id: string; password_hash: string | null }, password: string): Promise<boolean> {
  const key = reauthKey(user.id);
  await assertNotThrottled(ctx, [key]);
  if (await verifyPassword(user.password_hash, password)) {
    await clearFailures(ctx, key);
    return true;
  }
  await failAndSlowDown(ctx, [[key, REAUTH_RULE]]);
  return false;
}
