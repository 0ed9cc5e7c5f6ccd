// The plan steps through the contract: every save names the plan revision it started from (a stale one is
// refused), a physician's change to a plan prepared by someone else marks the session Modified, and every
// change to a plan is kept in its audit trail (plan_changes; gone with the session).
// Plain SQL that runs unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table treatments
      add column plan_revision integer not null default 0,
      add column modified_by uuid references users (id) on delete set null,
      add column modified_by_name text,
      add column modified_at timestamptz,
      -- The packed parameter set's file (its name, size and SHA-256 are in the plan).
      add column parameter_set_path text
  `.execute(db);
  await sql`
    create table plan_changes (
      id uuid primary key default gen_random_uuid(),
      treatment_id uuid not null references treatments (id) on delete cascade,
      at timestamptz not null default now(),
      -- Who, as they were named then (null: the system); the entry outlives the account.
      user_id uuid,
      user_name text,
      action text not null,
      step text not null,
      revision integer not null,
      -- What changed, as figures: the sentence is written in the reader's language when read.
      details jsonb not null default '{}'
    )
  `.execute(db);
  await sql`create index plan_changes_by_treatment on plan_changes (treatment_id, revision, at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table plan_changes`.execute(db);
  await sql`alter table treatments drop column plan_revision, drop column modified_by, drop column modified_by_name, drop column modified_at, drop column parameter_set_path`.execute(db);
}
