// The exam file's diagnostic data (docs/npt-format.md §4.7), kept whole with the session: the known fields
// and, for a newer file version, the fields this server does not know, as written (issue 17). Sessions
// uploaded before keep null: their files still hold it.
// Plain SQL that runs unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table treatments add column diagnostics jsonb`.execute(db);
}
