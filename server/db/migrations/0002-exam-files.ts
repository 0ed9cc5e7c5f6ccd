// NPT exam files: the stored file of a treatment, its fundus images, the plan proposed at processing, and
// durable background jobs. Plain SQL that runs unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table treatments
      add column file_path text,
      add column file_sha256 text,
      add column file_size bigint,
      add column device_id text,
      add column spot_size_um double precision,
      add column spot_spacing double precision,
      add column pulse_duration_ms double precision,
      add column laser_mode text,
      add column iol_status text,
      add column laser_dose double precision,
      add column error_params jsonb,
      add column plan jsonb,
      add column detection jsonb;
    -- The same file uploaded twice to a clinic is recognised by its SHA-256, also under concurrent uploads.
    create unique index treatments_clinic_file_idx on treatments (clinic_id, file_sha256);

    create table treatment_images (
      id uuid primary key default gen_random_uuid(),
      clinic_id uuid not null references clinics (id) on delete cascade,
      treatment_id uuid not null references treatments (id) on delete cascade,
      role text not null,
      entry text not null,
      width integer not null,
      height integer not null,
      original_width integer not null,
      original_height integer not null,
      display_path text not null,
      thumbnail_path text not null,
      created_at timestamptz not null default now(),
      unique (treatment_id, entry)
    );

    -- Background work. A job is claimed with FOR UPDATE SKIP LOCKED and held by a lease that its worker
    -- renews; a job whose lease ran out (its process died) is claimed again.
    create table jobs (
      id uuid primary key default gen_random_uuid(),
      kind text not null,
      clinic_id uuid references clinics (id) on delete cascade,
      subject_id uuid not null,
      state text not null default 'queued',
      attempts integer not null default 0,
      max_attempts integer not null default 3,
      run_after timestamptz not null default now(),
      locked_by text,
      locked_until timestamptz,
      last_error text,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index jobs_ready_idx on jobs (state, run_after);
    create index jobs_subject_idx on jobs (subject_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table jobs, treatment_images;
    drop index treatments_clinic_file_idx;
    alter table treatments
      drop column file_path, drop column file_sha256, drop column file_size, drop column device_id,
      drop column spot_size_um, drop column spot_spacing, drop column pulse_duration_ms, drop column laser_mode,
      drop column iol_status, drop column laser_dose, drop column error_params, drop column plan,
      drop column detection;
  `.execute(db);
}
