// Devices as clients of the API (issue 29; docs/deployment.md, "Connecting the lasers"): the one-time
// enrolment code an IT admin is shown and the credential the sync app exchanges it for, both kept only as
// SHA-256 hashes (256 random bits for the credential; the code is short but lives 15 minutes, works once and
// its guessing is throttled), when the credential was issued or revoked, and the version the sync app
// reports with its heartbeats; the device a session's exam came from; the parameter sets on their way to the
// lasers. Plain SQL that runs unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table devices
      add column enrolment_code_hash text,
      add column enrolment_expires_at timestamptz,
      add column credential_hash text,
      add column enrolled_at timestamptz,
      add column revoked_at timestamptz,
      add column sync_app_version text;
    create unique index devices_enrolment_code_key on devices (enrolment_code_hash) where enrolment_code_hash is not null;
    create unique index devices_credential_key on devices (credential_hash) where credential_hash is not null;
    -- The sweep for devices gone silent: only the few online ones are looked at.
    create index devices_online_idx on devices (last_seen_at) where sync_app_status = 'RUNNING';
    -- The device whose sync app uploaded a session's exam (null: a person's upload, or the device removed).
    alter table treatments add column uploaded_by_device_id uuid references devices (id) on delete set null;

    -- A signed plan's parameter set on its way to a laser: queued at packing for the session's device, fetched
    -- and confirmed by its SHA-256 (received), then reported treated (with the spots fired) or failed; or
    -- cancelled by a physician. At most one open (queued or received) per session.
    create table parameter_set_transfers (
      id uuid primary key default gen_random_uuid(),
      clinic_id uuid not null references clinics (id) on delete cascade,
      treatment_id uuid not null references treatments (id) on delete cascade,
      device_id uuid not null references devices (id) on delete cascade,
      status text not null check (status in ('queued', 'received', 'treated', 'failed', 'cancelled')),
      file_name text not null,
      size integer not null,
      sha256 text not null,
      queued_at timestamptz not null,
      received_at timestamptz,
      finished_at timestamptz,
      delivery jsonb,
      failure_reason text
    );
    create unique index parameter_set_transfers_open_key on parameter_set_transfers (treatment_id) where status in ('queued', 'received');
    create index parameter_set_transfers_device_idx on parameter_set_transfers (device_id, queued_at) where status in ('queued', 'received');
    create index parameter_set_transfers_treatment_idx on parameter_set_transfers (treatment_id, queued_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table parameter_set_transfers;
    alter table treatments drop column uploaded_by_device_id;
    drop index devices_online_idx;
    drop index devices_credential_key;
    drop index devices_enrolment_code_key;
    alter table devices
      drop column enrolment_code_hash, drop column enrolment_expires_at, drop column credential_hash,
      drop column enrolled_at, drop column revoked_at, drop column sync_app_version;
  `.execute(db);
}
