// The patient list and the per-request sign-in check, fast at 10,000 patients (docs/architecture.md,
// "Performance of the lists"):
// - an index per sort key of the contract, with the list's tie-breaker (name, second name, id) behind it,
//   so that a page is read off an index instead of sorting every patient; the latest session has one per
//   direction, as patients without sessions come last both ways;
// - per-clinic patient counts by status, kept by a trigger, for the list's total without counting rows;
// - cache versions: a number per cached fact ('auth' for sessions, users and security policies;
//   'patients:<clinic>' for a clinic's patient list), raised at commit by any change to the rows it
//   depends on, with a notification on the channel `cache_versions`. Cached answers are served only
//   while their version is unchanged (server/db/freshness.ts). Deferred to commit: the version row is
//   locked for the shortest time, after everything else the transaction did.
// Plain SQL that runs unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index patients_latest_session_idx;
    create index patients_by_latest_desc on patients
      (clinic_id, status, latest_session_at desc nulls last, lower(name), lower(second_name), id);
    create index patients_by_latest_asc on patients
      (clinic_id, status, latest_session_at asc nulls last, lower(name), lower(second_name), id);
    create index patients_by_name on patients (clinic_id, status, lower(name), lower(second_name), id);
    create index patients_by_second_name on patients (clinic_id, status, lower(second_name), lower(name), id);
    create index patients_by_birthday on patients (clinic_id, status, birthday, lower(name), lower(second_name), id);
    create index patients_by_sessions on patients (clinic_id, status, sessions_count, lower(name), lower(second_name), id);
    create index patients_by_created on patients (clinic_id, status, created_at, lower(name), lower(second_name), id);

    create table patient_counts (
      clinic_id uuid not null references clinics (id) on delete cascade,
      status text not null,
      patients integer not null,
      primary key (clinic_id, status)
    );
    insert into patient_counts (clinic_id, status, patients)
      select clinic_id, status, count(*) from patients group by clinic_id, status;

    create function patient_counts_add(clinic uuid, state text, delta integer) returns void language sql as $$
      insert into patient_counts as c (clinic_id, status, patients) values (clinic, state, delta)
        on conflict (clinic_id, status) do update set patients = c.patients + excluded.patients;
    $$;

    create function patients_keep_counts() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and old.clinic_id = new.clinic_id and old.status = new.status then
        return null;
      end if;
      if tg_op <> 'INSERT' then
        perform patient_counts_add(old.clinic_id, old.status, -1);
      end if;
      if tg_op <> 'DELETE' then
        perform patient_counts_add(new.clinic_id, new.status, 1);
      end if;
      return null;
    end;
    $$;

    create trigger patients_counts
      after insert or delete or update of clinic_id, status on patients
      for each row execute function patients_keep_counts();

    create table cache_versions (
      key text primary key,
      version bigint not null
    );

    create function cache_version_raise(name text) returns void language plpgsql as $$
    begin
      insert into cache_versions as v (key, version) values (name, 1)
        on conflict (key) do update set version = v.version + 1;
      perform pg_notify('cache_versions', name);
    end;
    $$;

    -- A clinic's patient list: its patients and their sessions.
    create function cache_versions_clinic_rows() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        perform cache_version_raise('patients:' || old.clinic_id);
      end if;
      if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.clinic_id <> old.clinic_id) then
        perform cache_version_raise('patients:' || new.clinic_id);
      end if;
      return null;
    end;
    $$;

    -- Users: who may sign in and in which role, and the names a list shows (who asked for a deletion).
    create function cache_versions_user_rows() returns trigger language plpgsql as $$
    begin
      perform cache_version_raise('auth');
      perform cache_version_raise('patients:' || old.clinic_id);
      return null;
    end;
    $$;

    create function cache_versions_auth_rows() returns trigger language plpgsql as $$
    begin
      perform cache_version_raise('auth');
      return null;
    end;
    $$;

    create constraint trigger patients_cache_version after insert or update or delete on patients
      deferrable initially deferred for each row execute function cache_versions_clinic_rows();
    create constraint trigger treatments_cache_version after insert or update or delete on treatments
      deferrable initially deferred for each row execute function cache_versions_clinic_rows();
    create constraint trigger users_cache_version after update or delete on users
      deferrable initially deferred for each row execute function cache_versions_user_rows();
    -- Not last_seen_at: it is checked against the idle timeout from the database when it matters.
    create constraint trigger auth_sessions_cache_version
      after update of ended_at, expires_at, token_hash, user_id or delete on auth_sessions
      deferrable initially deferred for each row execute function cache_versions_auth_rows();
    create constraint trigger security_settings_cache_version after insert or update or delete on security_settings
      deferrable initially deferred for each row execute function cache_versions_auth_rows();
    create constraint trigger security_settings_users_cache_version after insert or update or delete on security_settings_users
      deferrable initially deferred for each row execute function cache_versions_auth_rows();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger patients_cache_version on patients;
    drop trigger treatments_cache_version on treatments;
    drop trigger users_cache_version on users;
    drop trigger auth_sessions_cache_version on auth_sessions;
    drop trigger security_settings_cache_version on security_settings;
    drop trigger security_settings_users_cache_version on security_settings_users;
    drop function cache_versions_clinic_rows();
    drop function cache_versions_user_rows();
    drop function cache_versions_auth_rows();
    drop function cache_version_raise(text);
    drop table cache_versions;
    drop trigger patients_counts on patients;
    drop function patients_keep_counts();
    drop function patient_counts_add(uuid, text, integer);
    drop table patient_counts;
    drop index patients_by_latest_desc, patients_by_latest_asc, patients_by_name, patients_by_second_name,
      patients_by_birthday, patients_by_sessions, patients_by_created;
    create index patients_latest_session_idx on patients (clinic_id, status, latest_session_at desc nulls last);
  `.execute(db);
}
