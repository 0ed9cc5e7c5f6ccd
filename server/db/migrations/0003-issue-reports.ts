// Issue reports: "Report issue" on the patient card locks a session for good and keeps why and by whom.
// Plain SQL that runs unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table treatment_issue_reports (
      id uuid primary key default gen_random_uuid(),
      clinic_id uuid not null references clinics (id) on delete cascade,
      -- One report per session: the second one is refused (409).
      treatment_id uuid not null unique references treatments (id) on delete cascade,
      reason text not null,
      -- The reporter's id and name as they were: the report outlives the account.
      reported_by uuid,
      reported_by_name text not null,
      reported_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table treatment_issue_reports`.execute(db);
}
