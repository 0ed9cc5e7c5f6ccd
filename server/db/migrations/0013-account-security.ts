// Account security (issue 27): an e-mail change waits for the new address to be confirmed (defect 1), a link of its
// own kind carrying the address it confirms; a change of the password renewal is remembered, so that passwords it
// makes overdue get a grace period (defect 9); the session that signed a realtime socket's subscriptions is
// remembered, so that the socket closes when the session ends (defect 8). Plain SQL that runs unchanged on PGlite
// and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_tokens drop constraint user_tokens_kind_check`.execute(db);
  await sql`alter table user_tokens add constraint user_tokens_kind_check check (kind in ('invite', 'reset', 'email'))`.execute(db);
  await sql`alter table user_tokens add column email text`.execute(db);
  await sql`alter table user_tokens add constraint user_tokens_email_check check ((kind = 'email') = (email is not null))`.execute(db);
  await sql`alter table security_settings add column renewal_changed_at timestamptz`.execute(db);
  await sql`
    create table realtime_bindings (
      socket_id text not null,
      session_id uuid not null references auth_sessions (id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (socket_id, session_id)
    )
  `.execute(db);
  await sql`create index realtime_bindings_session_idx on realtime_bindings (session_id)`.execute(db);
}
