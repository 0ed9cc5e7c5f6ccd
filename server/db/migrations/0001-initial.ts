// Accounts, clinic, patients and the treatment rows the patient lists summarise. Plain SQL that runs
// unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table clinics (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      created_at timestamptz not null default now()
    );

    create table users (
      id uuid primary key default gen_random_uuid(),
      clinic_id uuid not null references clinics (id) on delete cascade,
      email text not null,
      first_name text not null,
      last_name text not null,
      physician_name text,
      role text not null,
      status text not null,
      invite_status text not null,
      previous_status text,
      password_hash text,
      password_changed_at timestamptz,
      must_change_password boolean not null default false,
      lang text not null default 'en',
      avatar_path text,
      avatar_type text,
      eula_accepted_at timestamptz,
      eula_version text,
      privacy_accepted_at timestamptz,
      privacy_version text,
      last_sign_in_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_email_key on users (lower(email));
    create index users_clinic_status_idx on users (clinic_id, status);

    create table auth_sessions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      token_hash text not null unique,
      remember boolean not null,
      ip text,
      user_agent text,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      ended_at timestamptz,
      ended_reason text
    );
    create index auth_sessions_user_idx on auth_sessions (user_id) where ended_at is null;

    create table user_tokens (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      kind text not null check (kind in ('invite', 'reset')),
      token_hash text not null unique,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz,
      revoked_at timestamptz
    );
    create index user_tokens_user_idx on user_tokens (user_id, kind);

    create table throttles (
      key text primary key,
      failures integer not null,
      window_started_at timestamptz not null,
      locked_until timestamptz
    );

    create table security_settings (
      clinic_id uuid primary key references clinics (id) on delete cascade,
      password_strength text not null default 'standard',
      password_renewal_interval integer,
      password_renewal_period text not null default 'months',
      user_scope text not null default 'all',
      logout_time_interval integer,
      logout_time_period text not null default 'minutes',
      updated_at timestamptz not null default now()
    );

    create table security_settings_users (
      clinic_id uuid not null references clinics (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      primary key (clinic_id, user_id)
    );

    create table devices (
      id uuid primary key default gen_random_uuid(),
      clinic_id uuid not null references clinics (id) on delete cascade,
      device_id text not null,
      optical_head_id text not null,
      camera text not null,
      description text,
      sync_app_status text not null,
      last_seen_at timestamptz,
      created_at timestamptz not null default now()
    );
    create unique index devices_clinic_device_key on devices (clinic_id, device_id);

    create table notifications (
      id uuid primary key default gen_random_uuid(),
      clinic_id uuid not null references clinics (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      category text not null,
      event text not null,
      params jsonb not null default '{}'::jsonb,
      link text,
      read_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index notifications_user_idx on notifications (user_id, created_at desc);

    create table notification_settings (
      user_id uuid primary key references users (id) on delete cascade,
      system boolean not null default true,
      team_members boolean not null default true,
      patients boolean not null default true,
      news_and_updates boolean not null default true,
      notify_via_email boolean not null default false
    );

    create table patients (
      id uuid primary key default gen_random_uuid(),
      clinic_id uuid not null references clinics (id) on delete cascade,
      name text not null,
      second_name text not null,
      birthday date not null,
      gender text not null,
      description text,
      status text not null default 'active',
      device_patient_id text,
      deletion_reason text,
      deletion_requested_by uuid references users (id) on delete set null,
      deletion_requested_at timestamptz,
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index patients_clinic_status_idx on patients (clinic_id, status);

    create table treatments (
      id uuid primary key default gen_random_uuid(),
      clinic_id uuid not null references clinics (id) on delete cascade,
      patient_id uuid not null references patients (id) on delete cascade,
      number integer not null,
      date timestamptz not null,
      eye text not null,
      description text,
      step text not null default 'initial_exclusion_boundaries',
      step_index integer not null default 0,
      processing_state text not null default 'file_uploaded',
      locked boolean not null default false,
      error_code text,
      error_message text,
      total_spots integer not null default 0,
      brightness double precision,
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (patient_id, number)
    );
    create index treatments_patient_idx on treatments (patient_id, date desc);

    create table audit_log (
      id bigserial primary key,
      clinic_id uuid,
      actor_id uuid,
      actor_role text,
      action text not null,
      outcome text not null,
      target_type text,
      target_id text,
      ip text,
      detail jsonb not null default '{}'::jsonb,
      at timestamptz not null default now()
    );
    create index audit_log_clinic_idx on audit_log (clinic_id, at desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table audit_log, treatments, patients, notification_settings, notifications, devices,
      security_settings_users, security_settings, throttles, user_tokens, auth_sessions, users, clinics;
  `.execute(db);
}
