// Brings the schema up to date. Migrations are listed here in order; each runs once, in a transaction.
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import * as initial from './migrations/0001-initial';
import * as examFiles from './migrations/0002-exam-files';
import * as issueReports from './migrations/0003-issue-reports';
import * as patientSessionFacts from './migrations/0004-patient-session-facts';
import * as listIndexesAndVersions from './migrations/0005-list-indexes-and-versions';
import * as otherListIndexes from './migrations/0006-other-list-indexes';
import * as planRevisions from './migrations/0007-plan-revisions';
import * as examDiagnostics from './migrations/0008-exam-diagnostics';
import * as annotations from './migrations/0009-annotations';
import * as previousTreatmentRegistrations from './migrations/0010-previous-treatment-registrations';
import * as registrationLandmarks from './migrations/0011-registration-landmarks';
import * as clinicalSafety from './migrations/0012-clinical-safety';
import * as accountSecurity from './migrations/0013-account-security';
import * as twoFactor from './migrations/0014-two-factor';
import * as accessLog from './migrations/0015-access-log';
import * as adminListVersions from './migrations/0016-admin-list-versions';
import * as deviceSync from './migrations/0017-device-sync';
import * as transferOrder from './migrations/0018-transfer-order';
import * as nameOrder from './migrations/0019-name-order';
import * as nameSortColumns from './migrations/0020-name-sort-columns';
import * as accessLogStatementHead from './migrations/0021-access-log-statement-head';
import * as unlabelledRulers from './migrations/0022-unlabelled-rulers';
import * as issueReportWithdrawal from './migrations/0023-issue-report-withdrawal';
import * as listVersionOnListedColumns from './migrations/0024-list-version-on-listed-columns';
import * as planTrailOrder from './migrations/0025-plan-trail-order';
import type { Database } from './tables';

const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-exam-files': examFiles,
  '0003-issue-reports': issueReports,
  '0004-patient-session-facts': patientSessionFacts,
  '0005-list-indexes-and-versions': listIndexesAndVersions,
  '0006-other-list-indexes': otherListIndexes,
  '0007-plan-revisions': planRevisions,
  '0008-exam-diagnostics': examDiagnostics,
  '0009-annotations': annotations,
  '0010-previous-treatment-registrations': previousTreatmentRegistrations,
  '0011-registration-landmarks': registrationLandmarks,
  '0012-clinical-safety': clinicalSafety,
  '0013-account-security': accountSecurity,
  '0014-two-factor': twoFactor,
  '0015-access-log': accessLog,
  '0016-admin-list-versions': adminListVersions,
  '0017-device-sync': deviceSync,
  '0018-transfer-order': transferOrder,
  '0019-name-order': nameOrder,
  '0020-name-sort-columns': nameSortColumns,
  '0021-access-log-statement-head': accessLogStatementHead,
  '0022-unlabelled-rulers': unlabelledRulers,
  '0023-issue-report-withdrawal': issueReportWithdrawal,
  '0024-list-version-on-listed-columns': listVersionOnListedColumns,
  '0025-plan-trail-order': planTrailOrder,
};

/** Where the migrations run: the kind of database and, for tests on PostgreSQL, the schema of their own. */
export interface MigrationTarget {
  kind: 'pglite' | 'postgres';
  schema?: string;
}

export async function migrate(db: Database, target: MigrationTarget): Promise<string[]> {
  const { schema } = target;
  const migrator = new Migrator({
    // Migrations work on untyped tables: they create them.
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
    // In a schema of its own (tests on PostgreSQL), Kysely must look for its bookkeeping tables there and
    // not take another schema's for its own.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await withCatalogueLock(db, target.kind, () => migrator.migrateToLatest());
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Drops a schema and all it holds (a test's or a benchmark's on PostgreSQL). */
export async function dropSchema(db: Database, schema: string): Promise<void> {
  await withCatalogueLock(db, 'postgres', () => sql.raw(`drop schema if exists "${schema.replace(/"/g, '')}" cascade`).execute(db));
}

// Kysely's migrator looks for its bookkeeping tables by reading the catalogue of every schema of the
// database (columns, their sequences, the right to use each schema). A schema dropped in the middle of that
// read fails it with "schema … does not exist": tests and fleet instances on one PostgreSQL database
// migrate while other tests drop their schemas. Migrating and dropping a schema therefore take one
// session-level advisory lock of the database (held on a connection of its own while the migrator uses
// others). PGlite has one connection and one process, so nothing can interleave there.
const CATALOGUE_LOCK_KEY = 0x4d4c_5031;

async function withCatalogueLock<T>(db: Database, kind: MigrationTarget['kind'], work: () => Promise<T>): Promise<T> {
  if (kind === 'pglite') return work();
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${CATALOGUE_LOCK_KEY})`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${CATALOGUE_LOCK_KEY})`.execute(connection);
    }
  });
}
