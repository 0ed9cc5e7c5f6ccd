// The queries of the failure counts per key (throttles) that server/security/throttle.ts keeps: its rules decide
// what is counted and how long a key locks. Each takes the database or a transaction.
import { sql } from 'kysely';
import type { Queryable } from '../db/tables';

/** The ends of the locks among `keys` that are still on at `now`. */
export async function locksUntil(db: Queryable, keys: string[], now: Date): Promise<Date[]> {
  if (!keys.length) return [];
  const rows = await db.selectFrom('throttles').select('locked_until').where('key', 'in', keys).where('locked_until', '>', now).execute();
  return rows.flatMap((row) => (row.locked_until ? [row.locked_until] : []));
}

/**
 * Counts one failure for `key` at `now` in one statement, so concurrent failures are all counted. The count
 * starts again when its window began at or before `windowStart`, or (`restartAfterLock`) when a lock has ended.
 * Returns the failures in the current window.
 */
export async function countFailure(db: Queryable, key: string, now: Date, windowStart: Date, restartAfterLock: boolean): Promise<number> {
  const restart = restartAfterLock
    ? sql<boolean>`(throttles.window_started_at <= ${windowStart} or (throttles.locked_until is not null and throttles.locked_until <= ${now}))`
    : sql<boolean>`(throttles.window_started_at <= ${windowStart})`;
  const row = await db
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
  return Number(row.failures);
}

export async function lockKey(db: Queryable, key: string, until: Date): Promise<void> {
  await db.updateTable('throttles').set({ locked_until: until }).where('key', '=', key).execute();
}

/** Deletes the keys whose window began before `staleBefore` and that are not locked at `now`. */
export async function deleteStaleKeys(db: Queryable, staleBefore: Date, now: Date): Promise<void> {
  await db
    .deleteFrom('throttles')
    .where('window_started_at', '<', staleBefore)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .execute();
}

export async function deleteKey(db: Queryable, key: string): Promise<void> {
  await db.deleteFrom('throttles').where('key', '=', key).execute();
}

/** Deletes `key` and every key that starts with `prefix` (taken literally: `%`, `_` and `\` are escaped). */
export async function deleteKeyAndPrefixed(db: Queryable, key: string, prefix: string): Promise<void> {
  const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  await db
    .deleteFrom('throttles')
    .where((eb) => eb.or([eb('key', '=', key), eb('key', 'like', pattern)]))
    .execute();
}
