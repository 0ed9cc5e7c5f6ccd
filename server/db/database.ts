// Opens the database: embedded PGlite in DATA_DIR/db by default, PostgreSQL when DATABASE_URL is set.
// Both speak the same SQL and return values of the same JavaScript types.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
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
}

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
    return { db: new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) }), kind: 'postgres' };
  }
  if (!options.pgliteDir.startsWith('memory://')) mkdirSync(options.pgliteDir, { recursive: true });
  const pglite = await PGlite.create(options.pgliteDir, {
    parsers: { [DATE_OID]: (value: string) => value, [INT8_OID]: (value: string) => Number(value) },
  });
  return { db: new Kysely<Tables>({ dialect: new PGliteDialect(pglite) }), kind: 'pglite' };
}

export const pgliteDirIn = (dataDir: string) => join(dataDir, 'db');
