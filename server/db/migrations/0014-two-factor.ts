// Two-factor sign-in (issue 27, build 1): a TOTP secret per user (RFC 6238) with the last time step used, so that
// a code works once; ten one-time recovery codes kept as hashes; remembered devices; the short-lived challenge
// between a right password and the second step; and the clinic's choice of roles that must use it and of how long
// a device may be remembered. Plain SQL that runs unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users
      add column totp_secret text,
      add column totp_pending_secret text,
      add column totp_enabled_at timestamptz,
      add column totp_last_step bigint;
    alter table users add constraint users_totp_check check ((totp_enabled_at is null) = (totp_secret is null));

    create table recovery_codes (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      code_hash text not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index recovery_codes_user_idx on recovery_codes (user_id) where used_at is null;

    create table remembered_devices (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      token_hash text not null unique,
      user_agent text,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz
    );
    create index remembered_devices_user_idx on remembered_devices (user_id);

    create table sign_in_challenges (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      token_hash text not null unique,
      remember boolean not null,
      failures integer not null default 0,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index sign_in_challenges_user_idx on sign_in_challenges (user_id);

    -- A session signed in while the clinic required a second factor the user had not set up: it may only set one up.
    alter table auth_sessions add column second_factor_setup boolean not null default false;

    alter table security_settings
      add column two_factor_roles text[] not null default '{}',
      add column remember_device_days integer not null default 0
        check (remember_device_days between 0 and 30);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table security_settings drop column two_factor_roles, drop column remember_device_days;
    alter table auth_sessions drop column second_factor_setup;
    drop table sign_in_challenges, remembered_devices, recovery_codes;
    alter table users drop constraint users_totp_check;
    alter table users drop column totp_secret, drop column totp_pending_secret, drop column totp_enabled_at,
      drop column totp_last_step;
  `.execute(db);
}
