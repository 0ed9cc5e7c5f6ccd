// Opens the database: embedded PGlite in DATA_DIR/db by default, PostgreSQL when DATABASE_URL is set.
// Both speak the same SQL and return values of the same JavaScript types.
import { mkdirSync } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { followPgliteVersions, readTableVersions } from './freshness';
import { PGliteDialect } from './pglite-dialect';
import type { Tables } from './tables';

const DATE_OID = 1082;
const INT8_OID = 20;

// Dates of birth stay YYYY-MM-DD strings (a Date would shift them by the time zone); counts are numbers.
pg.types.setTypeParser(DATE_OID, (value) => value);
pg.types.setTypeParser(INT8_OID, (value) => Number(value));

export interface DatabaseOptions {
  /** PostgreSQL connection string; null for embedded PGlite. */
  databaseUrl: string | null;
  /** PGlite data directory; 'memory://' keeps it in memory (tests). */
  pgliteDir: string;
  /** PostgreSQL schema to work in (tests isolate themselves this way); default public. */
  schema?: string;
  /** Told when the PGlite directory's lock was left by a process that stopped, before waiting for it to go stale. */
  onLockWait?: (message: string) => void;
}

/** Another process has the PGlite data directory open. */
export class DataDirectoryInUseError extends Error {}

// A process holding the lock refreshes it every LOCK_UPDATE_MS; one that stopped without releasing it
// (SIGKILL, power loss) leaves a lock that counts as stale after LOCK_STALE_MS. The margin between the
// two lets a busy event loop be late with a refresh without losing the lock.
const LOCK_STALE_MS = 10_000;
const LOCK_UPDATE_MS = 2_000;

/**
 * Takes the lock of a PGlite directory (proper-lockfile: an atomic mkdir of `<dir>.lock`, refreshed while
 * held, released on exit). PGlite is one PostgreSQL instance in one process: a second process on the
 * same files would write past the first, and what one of them wrote would be lost. A fresh lock of a
 * live process on this machine is refused at once; any other lock (its process was killed, or it is
 * held from another machine) is waited for until it is stale, then taken or refused.
 */
async function lockDataDirectory(dir: string, onWait?: (message: string) => void): Promise<() => Promise<void>> {
  const ownerFile = `${dir}.lock.owner`;
  const options = {
    stale: LOCK_STALE_MS,
    update: LOCK_UPDATE_MS,
    realpath: false,
    // The lock could not be refreshed in time and another process may have taken it: stop before two
    // processes write to one database.
    onCompromised: (error: Error) => {
      console.error(`The lock of the data directory ${dir} was lost (${error.message}); stopping so that no writes are lost.`);
      process.exit(1);
    },
  };
  const locked = async (release: () => Promise<void>) => {
    // Who holds the lock, so that a second process can tell a live holder from a killed one.
    await writeFile(ownerFile, JSON.stringify({ pid: process.pid, host: hostname() }));
    return async () => {
      await rm(ownerFile, { force: true });
      await release();
    };
  };
  try {
    return await locked(await lockfile.lock(dir, options));
  } catch (error) {
    if ((error as { code?: string }).code !== 'ELOCKED') throw error;
  }
  const age = await stat(`${dir}.lock`).then((s) => Date.now() - s.mtimeMs, () => Infinity);
  if (age < 2 * LOCK_UPDATE_MS && (await ownerIsAlive(ownerFile))) throw inUse(dir);
  onWait?.(`The data directory ${dir} is locked, apparently by a process that stopped; waiting up to ${LOCK_STALE_MS / 1000} s for its lock to expire.`);
  try {
    return await locked(await lockfile.lock(dir, { ...options, retries: { retries: 12, factor: 1, minTimeout: 1000, maxTimeout: 1000 } }));
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') throw inUse(dir);
    throw error;
  }
}

/** The lock's holder is a process that runs on this machine (a reused pid only makes us wait, see above). */
async function ownerIsAlive(ownerFile: string): Promise<boolean> {
  try {
    const owner = JSON.parse(await readFile(ownerFile, 'utf8')) as { pid?: unknown; host?: unknown };
    if (owner.host !== hostname() || typeof owner.pid !== 'number') return false;
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as { code?: string }).code === 'EPERM';
  }
}

const inUse = (dir: string) =>
  new DataDirectoryInUseError(
    `The data directory ${dir} is in use by another Macula Planner process (a running server or command). ` +
      'Only one process at a time may open the embedded database: stop the other one first ' +
      '(or, to run several, use PostgreSQL through DATABASE_URL).',
  );

export interface OpenDatabase {
  db: Kysely<Tables>;
  kind: 'pglite' | 'postgres';
}

export async function openDatabase(options: DatabaseOptions): Promise<OpenDatabase> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    if (options.schema) {
      const client = await pool.connect();
      try {
        await client.query(`create schema if not exists "${options.schema.replace(/"/g, '')}"`);
      } finally {
        client.release();
      }
    }
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    // Cached answers (sign-in check, patient list) are checked against the versions table per request.
    readTableVersions(db);
    return { db, kind: 'postgres' };
  }
  let unlock: (() => Promise<void>) | null = null;
  if (!options.pgliteDir.startsWith('memory://')) {
    mkdirSync(options.pgliteDir, { recursive: true });
    unlock = await lockDataDirectory(options.pgliteDir, options.onLockWait);
  }
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(options.pgliteDir, {
      parsers: { [DATE_OID]: (value: string) => value, [INT8_OID]: (value: string) => Number(value) },
    });
  } catch (error) {
    await unlock?.();
    throw error;
  }
  const db = new Kysely<Tables>({ dialect: new PGliteDialect(pglite) });
  // Cached answers follow the notifications of this, the only process with the database.
  await followPgliteVersions(db, pglite);
  if (unlock) {
    // The lock is released once the database is closed, so the next process can open it at once.
    const destroy = db.destroy.bind(db);
    const release = unlock;
    db.destroy = async () => {
      await destroy();
      await release().catch(() => {});
    };
  }
  return { db, kind: 'pglite' };
}

export const pgliteDirIn = (dataDir: string) => join(dataDir, 'db');

/** The database a process (server or command) is configured for; waiting on a lock is said on the console. */
export const openConfiguredDatabase = (config: { databaseUrl: string | null; dataDir: string }) =>
  openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: pgliteDirIn(config.dataDir),
    onLockWait: (message) => console.log(message),
  });

/**
 * The same for a process that cannot go on without it: when another process holds the data directory, says so on
 * the console (with `consequence`, e.g. that nothing was changed) and answers null.
 */
export async function openConfiguredDatabaseOrExplain(
  config: { databaseUrl: string | null; dataDir: string },
  consequence = '',
): Promise<Awaited<ReturnType<typeof openConfiguredDatabase>> | null> {
  try {
    return await openConfiguredDatabase(config);
  } catch (error) {
    if (!(error instanceof DataDirectoryInUseError)) throw error;
    console.error(consequence ? `${error.message}\n${consequence}` : error.message);
    return null;
  }
}
