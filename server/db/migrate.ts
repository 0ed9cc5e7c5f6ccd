// Brings the schema up to date. Migrations are listed here in order; each runs once, in a transaction.
import { type Kysely, type Migration, Migrator } from 'kysely';
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
};

export async function migrate(db: Database, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    // Migrations work on untyped tables: they create them.
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
    // In a schema of its own (tests on PostgreSQL), Kysely must look for its bookkeeping tables there and
    // not take another schema's for its own.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
