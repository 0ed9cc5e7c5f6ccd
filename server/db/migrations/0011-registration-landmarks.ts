// The landmarks a registration of an earlier image was found from (issue 17, after stop 23): both sessions'
// fovea and optic disc as their plans held them. When a physician moves either since (step 1 of the wizard),
// the registration is out of date and is found again. Rows from before keep null: they are found again once.
// Plain SQL that runs unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table treatment_registrations add column landmarks jsonb`.execute(db);
}
