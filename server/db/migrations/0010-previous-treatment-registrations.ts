// The previous treatment on today's image (issue 17): how an earlier session's fundus image lies on a later
// session's, found once by a background job and kept. A row per pair; gone with either session.
// Plain SQL that runs unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table treatment_registrations (
      treatment_id uuid not null references treatments (id) on delete cascade,
      earlier_treatment_id uuid not null references treatments (id) on delete cascade,
      clinic_id uuid not null references clinics (id) on delete cascade,
      -- pending: a job registers it; registered: transform and uncertainty set; failed: error_code says why.
      state text not null check (state in ('pending', 'registered', 'failed')),
      method text check (method in ('landmarks', 'vessels')),
      -- {a, b, tx, ty}: earlier display-image pixels to today's.
      transform jsonb,
      uncertainty_um double precision,
      vessel_agreement double precision,
      error_code text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (treatment_id, earlier_treatment_id)
    )
  `.execute(db);
  await sql`create index treatment_registrations_earlier on treatment_registrations (earlier_treatment_id)`.execute(db);
}
