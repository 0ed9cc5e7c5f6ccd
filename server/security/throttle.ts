// Slowing and refusing repeated failures (sign-in, current-password checks, reset requests), per key:
// `account:<lower e-mail>` and `ip:<address>`. Each key counts failures in a window; at the limit the key
// is locked (429 with Retry-After) until the lock time has passed. Failures before the lock are slowed by
// a short growing delay. State lives in the `throttles` table, so several server instances share it and
// a restart does not forget it. All times come from the context clock.
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';

export interface ThrottleRule {
  /** Failures within the window that lock the key. */
  limit: number;
  windowMs: number;
  lockMs: number;
}

const MINUTE = 60_000;

/** Wrong passwords for one account: 10 within 15 minutes lock it for 15 minutes. */
export const ACCOUNT_RULE: ThrottleRule = { limit: 10, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
/** Wrong passwords from one address (any accounts): 30 within 15 minutes. */
export const ADDRESS_RULE: ThrottleRule = { limit: 30, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
export const addressKey = (ip: string) => `ip:${ip}`;

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
  return new HttpError(
    429,
    'auth.throttled',
    'auth.throttled',
    { minutes: Math.max(1, Math.ceil(seconds / 60)) },
    {},
    { retryAfter: seconds },
    { 'Retry-After': String(seconds) },
  );
}

/** Seconds until the longest lock among `keys` ends, or 0 when none is locked. */
export async function lockedFor(ctx: AppContext, keys: string[]): Promise<number> {
  if (!keys.length) return 0;
  const now = ctx.clock.now();
  const rows = await ctx.db
    .selectFrom('throttles')
    .select('locked_until')
    .where('key', 'in', keys)
    .where('locked_until', '>', now)
    .execute();
  const until = Math.max(0, ...rows.map((r) => (r.locked_until ? r.locked_until.getTime() : 0)));
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
  // One statement, so concurrent failures for the same key are all counted.
  const restart = sql<boolean>`(throttles.window_started_at <= ${windowStart} or (throttles.locked_until is not null and throttles.locked_until <= ${now}))`;
  const row = await ctx.db
    .insertInto('throttles')
    .values({ key, failures: 1, window_started_at: now, locked_until: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql<number>`case when ${restart} then 1 else throttles.failures + 1 end`,
        window_started_at: sql<Date>`case when ${restart} then ${now} else throttles.window_started_at end`,
        locked_until: sql<Date | null>`case when ${restart} then null else throttles.locked_until end`,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  await pruneNowAndThen(ctx);
  const failures = Number(row.failures);
  if (failures >= rule.limit) {
    await ctx.db
      .updateTable('throttles')
      .set({ locked_until: new Date(now.getTime() + rule.lockMs) })
      .where('key', '=', key)
      .execute();
  }
  return failures;
}

// Rows whose window and lock have passed are deleted now and then (at most every 10 minutes per server),
// so keys made up by a client do not pile up.
const PRUNE_EVERY_MS = 10 * MINUTE;
const STALE_AFTER_MS = 24 * 60 * MINUTE;
const lastPrune = new WeakMap<AppContext, number>();

export async function pruneThrottles(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now();
  const stale = new Date(now.getTime() - STALE_AFTER_MS);
  await ctx.db
    .deleteFrom('throttles')
    .where('window_started_at', '<', stale)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .execute();
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
  await ctx.db.deleteFrom('throttles').where('key', '=', key).execute();
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
