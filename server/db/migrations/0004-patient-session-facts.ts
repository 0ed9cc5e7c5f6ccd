// A patient's latest session date and session count, kept on the patient row by a trigger on treatments, so
// that the patient list sorts and pages on the patients table alone (docs/architecture.md, "Performance of
// the lists"). A trigger rather than code: every path that adds, moves or removes a session keeps them right,
// including cascades. Plain SQL that runs unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table patients
      add column latest_session_at timestamptz,
      add column sessions_count integer not null default 0;

    create function patient_session_facts(patient uuid) returns void language sql as $$
      update patients set
        latest_session_at = (select max(date) from treatments where patient_id = patient),
        sessions_count = (select count(*) from treatments where patient_id = patient)
      where id = patient;
    $$;

    create function treatments_keep_patient_facts() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'DELETE' then
        perform patient_session_facts(new.patient_id);
      end if;
      if tg_op = 'DELETE' or old.patient_id <> new.patient_id then
        perform patient_session_facts(old.patient_id);
      end if;
      return null;
    end;
    $$;

    create trigger treatments_patient_facts
      after insert or delete or update of patient_id, date on treatments
      for each row execute function treatments_keep_patient_facts();

    update patients p set
      latest_session_at = (select max(date) from treatments t where t.patient_id = p.id),
      sessions_count = (select count(*) from treatments t where t.patient_id = p.id);

    -- The list's default order: newest session first, patients without sessions last.
    create index patients_latest_session_idx on patients (clinic_id, status, latest_session_at desc nulls last);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger treatments_patient_facts on treatments;
    drop function treatments_keep_patient_facts();
    drop function patient_session_facts(uuid);
    drop index patients_latest_session_idx;
    alter table patients drop column latest_session_at, drop column sessions_count;
  `.execute(db);
}
