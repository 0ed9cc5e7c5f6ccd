// Answers kept in memory for as long as the rows they were read from are unchanged. Migration 0005 raises
// a version per cached fact ('auth'; 'patients:<clinic>') at the commit of any change to its rows, and
// notifies the channel `cache_versions`:
// - on PGlite this process is the only one with the database, and a notification arrives before the
//   committing statement returns: a generation counted in memory per key is exact, and a cached answer
//   costs no query at all;
// - on PostgreSQL other processes write too, and a notification may arrive after the next request: the
//   versions are read from the table instead, one small query for all the keys a request needs.
// A database opened any other way has no versions: nothing is cached for it.
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from './tables';

export const VERSION_CHANNEL = 'cache_versions';

type Source = { kind: 'memory'; generations: Map<string, number>; listeners: Set<(key: string) => void> } | { kind: 'table' };

const sources = new WeakMap<object, Source>();

/** PGlite: counts the notifications of version changes (call before the first query that may change rows). */
export async function followPgliteVersions(db: Database, pglite: PGlite): Promise<void> {
  const generations = new Map<string, number>();
  const listeners = new Set<(key: string) => void>();
  await pglite.listen(VERSION_CHANNEL, (key) => {
    generations.set(key, (generations.get(key) ?? 0) + 1);
    for (const listener of listeners) listener(key);
  });
  sources.set(db, { kind: 'memory', generations, listeners });
}

/**
 * Calls `listener` with each key whose version `db` raised, as the change commits. Only where the versions are
 * counted in this process (PGlite); elsewhere, and for a database with no versions, it is never called.
 */
export function onVersionRaised(db: Database, listener: (key: string) => void): void {
  const source = sources.get(db);
  if (source?.kind === 'memory') source.listeners.add(listener);
}

/** PostgreSQL: versions are read from the cache_versions table. */
export function readTableVersions(db: Database): void {
  sources.set(db, { kind: 'table' });
}

// Versions already read for a request: the sign-in check reads the list's key with its own, in one query.
const readFor = new WeakMap<object, Map<string, string>>();

/**
 * The current versions of `keys` as one stamp, or null when `db` has none (do not cache). `request` (any
 * object living as long as one request) lets later reads of the same request reuse what was read.
 */
export async function versionStamp(db: Database, keys: string[], request?: object): Promise<string | null> {
  const source = sources.get(db);
  if (!source) return null;
  if (source.kind === 'memory') return keys.map((key) => source.generations.get(key) ?? 0).join(' ');
  const known = request ? readFor.get(request) : undefined;
  const missing = keys.filter((key) => !known?.has(key));
  if (missing.length) {
    const rows = await db.selectFrom('cache_versions').select(['key', 'version']).where('key', 'in', missing).execute();
    const read = known ?? new Map<string, string>();
    for (const key of missing) read.set(key, '0');
    for (const row of rows) read.set(row.key, String(row.version));
    if (request && !known) readFor.set(request, read);
    return keys.map((key) => read.get(key)).join(' ');
  }
  return keys.map((key) => known!.get(key)).join(' ');
}

/**
 * A bounded map of answers, each valid under the version stamp it was read with. Concurrent misses of one
 * key under one stamp share a single load. `limit` bounds the entries, or their total weight when `weigh`
 * says what an entry weighs (e.g. the ids it holds).
 */
export class VersionedCache<V> {
  private readonly entries = new Map<string, { stamp: string; value: V; weight: number }>();
  private readonly loading = new Map<string, Promise<V>>();
  private weight = 0;

  constructor(
    private readonly limit: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  /** The cached value of `key` read under `stamp` (null: no caching), or `load`'s, kept for next time. */
  async get(key: string, stamp: string | null, load: () => Promise<V>): Promise<V> {
    if (stamp === null) return load();
    const hit = this.entries.get(key);
    if (hit?.stamp === stamp) return hit.value;
    const flight = `${stamp}\u0000${key}`;
    const pending = this.loading.get(flight);
    if (pending) return pending;
    // Read after the stamp: a change committed meanwhile has raised a version already, so this value is
    // never served under a stamp newer than what it reflects.
    const promise = load().then(
      (value) => {
        this.loading.delete(flight);
        this.set(key, stamp, value);
        return value;
      },
      (error: unknown) => {
        this.loading.delete(flight);
        throw error;
      },
    );
    this.loading.set(flight, promise);
    return promise;
  }

  /** What is cached for `key` if it was read under `stamp`, without loading anything. */
  current(key: string, stamp: string): V | undefined {
    const hit = this.entries.get(key);
    return hit?.stamp === stamp ? hit.value : undefined;
  }

  /** What is cached for `key`, whatever its stamp (a hint, never an answer). */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Replaces what is cached for `key` (e.g. after the cached fact changed in this process). */
  set(key: string, stamp: string, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    this.entries.set(key, { stamp, value, weight });
    this.weight += weight;
    // The oldest entries go first (a Map keeps insertion order); the newest stays even when it alone is over.
    while (this.weight > this.limit && this.entries.size > 1) this.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}

/**
 * A VersionedCache of `limit` entries (or weight, with `weigh`) per database (a process may open several:
 * tests do), made on first use.
 */
export function cachePerDatabase<V>(limit: number, weigh?: (value: V) => number): (db: Database) => VersionedCache<V> {
  const caches = new WeakMap<Database, VersionedCache<V>>();
  return (db) => {
    let cache = caches.get(db);
    if (!cache) caches.set(db, (cache = new VersionedCache<V>(limit, weigh)));
    return cache;
  };
}
