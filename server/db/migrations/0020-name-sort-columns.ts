// The list's name order from stored columns (issue 28, measured after issue 30's migration 0019): sorting by
// patient_name_key(name) evaluated the fold for every patient of a list whenever its ordered ids were read
// (10,000 patients: 180–240 ms on PGlite, for each of the 12 orders, after every change to the clinic's
// patients), and the planner preferred that to walking the expression indexes. name_key and second_name_key
// hold the folds, computed once when a name is written; the list's indexes are made again on them.
import { type Kysely, sql } from 'kysely';

const LIST_INDEXES = (name: string, secondName: string) => `
    create index patients_by_latest_desc on patients
      (clinic_id, status, latest_session_at desc nulls last, ${name}, ${secondName}, id);
    create index patients_by_latest_asc on patients
      (clinic_id, status, latest_session_at asc nulls last, ${name}, ${secondName}, id);
    create index patients_by_name on patients (clinic_id, status, ${name}, ${secondName}, id);
    create index patients_by_second_name on patients (clinic_id, status, ${secondName}, ${name}, id);
    create index patients_by_birthday on patients (clinic_id, status, birthday, ${name}, ${secondName}, id);
    create index patients_by_sessions on patients (clinic_id, status, sessions_count, ${name}, ${secondName}, id);
    create index patients_by_created on patients (clinic_id, status, created_at, ${name}, ${secondName}, id);
`;

const DROP_LIST_INDEXES = `
    drop index patients_by_latest_desc;
    drop index patients_by_latest_asc;
    drop index patients_by_name;
    drop index patients_by_second_name;
    drop index patients_by_birthday;
    drop index patients_by_sessions;
    drop index patients_by_created;
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
    alter table patients
      add column name_key text generated always as (patient_name_key(name)) stored,
      add column second_name_key text generated always as (patient_name_key(second_name)) stored;
    ${DROP_LIST_INDEXES}
    ${LIST_INDEXES('name_key', 'second_name_key')}
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
    ${DROP_LIST_INDEXES}
    ${LIST_INDEXES('patient_name_key(name)', 'patient_name_key(second_name)')}
    alter table patients drop column name_key, drop column second_name_key;
  `,
    )
    .execute(db);
}
