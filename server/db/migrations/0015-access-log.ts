// The access log (issue 27): audit_log becomes append-only and hash-chained, and names the patients each entry
// read or changed. Every row gets a sequence number and the SHA-256 of the previous row's hash and its own
// canonical text, assigned by a BEFORE INSERT trigger from the chain's head row (locked until commit: one writer
// extends the chain at a time); updates, deletes and truncation are refused by triggers. `npm run audit:verify`
// (server/services/audit-chain.ts) recomputes the chain in TypeScript from the stored columns; the canonical text
// is built here and there the same way (docs/security.md, "Access log"). Plain SQL and plpgsql that run
// unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

const UUID = `'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table audit_log
      add column patient_ids uuid[] not null default '{}',
      add column seq bigint,
      add column prev_hash text,
      add column hash text;

    -- The patients of the entries written so far: a patient target, a session's patient, a patientId detail.
    update audit_log set patient_ids = array[target_id::uuid]
      where target_type = 'patient' and target_id ~* ${sql.raw(UUID)};
    update audit_log a set patient_ids = array[t.patient_id]
      from treatments t where a.target_type = 'treatment' and t.id::text = a.target_id;
    update audit_log set patient_ids = array[(detail->>'patientId')::uuid]
      where patient_ids = '{}' and detail->>'patientId' ~* ${sql.raw(UUID)};

    -- One field of the canonical text: its length in characters, a colon and the text; '-' for null. Length
    -- prefixes make the text unambiguous whatever a field holds.
    create function audit_log_field(value text) returns text language sql immutable as $$
      select case when value is null then '-' else length(value)::text || ':' || value end
    $$;

    -- The canonical text of a row, field by field in this order (the verifier builds the same from the same
    -- columns): the time in UTC to the microsecond, the patients comma-separated, detail as jsonb prints it.
    create function audit_log_text(r audit_log) returns text language sql stable as $$
      select concat_ws('|',
        audit_log_field(r.seq::text), audit_log_field(r.id::text), audit_log_field(r.clinic_id::text),
        audit_log_field(r.actor_id::text), audit_log_field(r.actor_role), audit_log_field(r.action),
        audit_log_field(r.outcome), audit_log_field(r.target_type), audit_log_field(r.target_id),
        audit_log_field(r.ip), audit_log_field(array_to_string(r.patient_ids, ',')),
        audit_log_field(r.detail::text),
        audit_log_field(to_char(r.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')))
    $$;

    create function audit_log_hash(prev_hash text, r audit_log) returns text language sql stable as $$
      select encode(sha256(convert_to(prev_hash || E'\n' || audit_log_text(r), 'UTF8')), 'hex')
    $$;

    -- The head of the chain: its last seq and hash, one row. The insert trigger reads it locked (concurrent writers
    -- wait for the commit before them) and moves it on. A lookup of the newest entry instead would depend on the
    -- planner: with statistics from a nearly empty log it scans the whole table for every entry (bench:api fell
    -- from 8,900 to 700 requests a second). The verifier does not trust this row: it recomputes from the entries.
    create table audit_log_head (
      only_row boolean primary key default true check (only_row),
      seq bigint not null,
      hash text not null
    );

    -- The rows written so far, chained in the order they were written.
    do $$
    declare
      r audit_log%rowtype;
      n bigint := 0;
      prev text := repeat('0', 64);
    begin
      for r in select * from audit_log order by id loop
        n := n + 1;
        r.seq := n;
        r.prev_hash := prev;
        r.hash := audit_log_hash(prev, r);
        update audit_log set seq = r.seq, prev_hash = r.prev_hash, hash = r.hash where id = r.id;
        prev := r.hash;
      end loop;
      insert into audit_log_head (seq, hash) values (n, prev);
    end;
    $$;

    alter table audit_log
      alter column seq set not null,
      alter column prev_hash set not null,
      alter column hash set not null;
    create unique index audit_log_seq_idx on audit_log (seq);
    create index audit_log_patient_ids_idx on audit_log using gin (patient_ids);

    -- Appends a row to the chain. The head row's lock (held until commit) makes concurrent writers take turns, so
    -- that each reads the head the last commit left; whatever the insert supplies for seq and the hashes is
    -- overwritten. A row written earlier by the same statement has moved the head already.
    create function audit_log_append() returns trigger language plpgsql as $$
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

    create function audit_log_refuse() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_log is append-only: % refused', tg_op using errcode = '42501';
    end;
    $$;

    create trigger audit_log_chain before insert on audit_log
      for each row execute function audit_log_append();
    create trigger audit_log_append_only before update or delete on audit_log
      for each row execute function audit_log_refuse();
    create trigger audit_log_no_truncate before truncate on audit_log
      for each statement execute function audit_log_refuse();
    create trigger audit_log_head_kept before delete on audit_log_head
      for each row execute function audit_log_refuse();
    create trigger audit_log_head_no_truncate before truncate on audit_log_head
      for each statement execute function audit_log_refuse();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger audit_log_no_truncate on audit_log;
    drop trigger audit_log_append_only on audit_log;
    drop trigger audit_log_chain on audit_log;
    drop function audit_log_refuse();
    drop function audit_log_append();
    drop function audit_log_hash(text, audit_log);
    drop function audit_log_text(audit_log);
    drop function audit_log_field(text);
    drop table audit_log_head;
    drop index audit_log_patient_ids_idx;
    drop index audit_log_seq_idx;
    alter table audit_log drop column patient_ids, drop column seq, drop column prev_hash, drop column hash;
  `.execute(db);
}
