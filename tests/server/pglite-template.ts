// Vitest global set-up of the server suites on PGlite: a new PGlite database spends about 4 s of CPU on
// initdb, an opened copy of a closed one under 0.5 s. One database is made and migrated here, once per run,
// and every test server starts from a copy of it (tests/server/helper.ts); migrate() then finds nothing to do
// unless a migration was added since.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A closed, migrated PGlite data directory to copy (null on PostgreSQL). */
    pgliteTemplate: string | null;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.DATABASE_URL) {
    project.provide('pgliteTemplate', null);
    return () => {};
  }
  const dir = mkdtempSync(join(tmpdir(), 'macula-pglite-template-'));
  const { db } = await openDatabase({ databaseUrl: null, pgliteDir: join(dir, 'db') });
  await migrate(db, { kind: 'pglite' });
  await db.destroy();
  project.provide('pgliteTemplate', join(dir, 'db'));
  return () => rmSync(dir, { recursive: true, force: true });
}
