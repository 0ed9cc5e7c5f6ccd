// The access log's chain head moved once per statement instead of once per entry (issue 28). The reads of a busy
// list are recorded many at once (server/services/audit-reads.ts); migration 0015's trigger read the head row
// locked, and wrote it back, for every entry of such an insert. Now the first entry of a statement reads the head
// (locked until commit, as before: concurrent writers still take turns), each entry passes its seq and hash on to
// the next in a transaction-local setting, and a statement-level trigger writes the head row once at the end.
// The chain is the same chain: the same seq, prev_hash and hash for the same rows (`npm run audit:verify`).
// Measured on PGlite (2-core machine, quiet; 150 inserts per round, four rounds): a 64-entry insert took a median
// of 4.1–5.1 ms and now 2.8–3.5 ms; a one-entry insert 0.48–0.57 ms and now 0.54–0.59 ms.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The head as this statement left it, '<seq>:<hash>', or empty: read from audit_log_head. Local to the
    -- transaction, and undone with a statement or savepoint that fails.
    create or replace function audit_log_append() returns trigger language plpgsql as $$
    declare
      passed text := current_setting('macula.audit_log_head', true);
      head_seq bigint;
      head_hash text;
    begin
      if passed is null or passed = '' then
        select seq, hash into strict head_seq, head_hash from audit_log_head for update;
      else
        head_seq := split_part(passed, ':', 1)::bigint;
        head_hash := split_part(passed, ':', 2);
      end if;
      new.seq := head_seq + 1;
      new.prev_hash := head_hash;
      new.hash := audit_log_hash(new.prev_hash, new);
      perform set_config('macula.audit_log_head', new.seq::text || ':' || new.hash, true);
      return new;
    end;
    $$;

    -- After every insert statement (also one that wrote nothing): the head row moves to the last entry written.
    create function audit_log_move_head() returns trigger language plpgsql as $$
    declare
      passed text := current_setting('macula.audit_log_head', true);
    begin
      if passed is not null and passed <> '' then
        update audit_log_head set seq = split_part(passed, ':', 1)::bigint, hash = split_part(passed, ':', 2);
        perform set_config('macula.audit_log_head', '', true);
      end if;
      return null;
    end;
    $$;

    create trigger audit_log_move_head after insert on audit_log
      for each statement execute function audit_log_move_head();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger audit_log_move_head on audit_log;
    drop function audit_log_move_head();
    create or replace function audit_log_append() returns trigger language plpgsql as $$
    declare
      head record;
    begin
      select seq, hash into strict head from audit_log_head for update;
      new.seq := head.seq + 1;
      new.prev_hash := head.hash;
      new.hash := audit_log_hash(new.prev_hash, new);
      update audit_log_head set seq = new.seq, hash = new.hash;
      return new;
    end;
    $$;
  `.execute(db);
}
