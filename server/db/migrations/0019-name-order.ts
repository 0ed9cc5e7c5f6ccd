// Patient names as a German clinic sorts and searches them (issue 30): Schäfer before Schulz and Özdemir among
// the O (DIN 5007-1: ä, ö, ü sort as a, o, u; ß as ss; other accents as their letter), and a search for
// "Weiss", "schae" or "Ozdemir" finds Weiß, Schäfer and Özdemir.
// - patient_name_key(text): lower case, accents dropped, ß as ss (DIN 5007-1; the letters with accents are
//   translated before lower(), which folds only ASCII in a database of the C locale); the sort key of the list's names
//   and the search's first form.
// - patient_name_key_expanded(text): the same with ä, ö, ü written ae, oe, ue (DIN 5007-2, as on a keyboard
//   without umlauts); the search's second form.
// server/db/name-key.ts folds a search term the same way (a server test holds the two to each other).
// The list's indexes (migration 0005) are made again on the sort key. The search reads a stored column,
// name_search: both names in both orders, in both forms, so that a search compares one text per patient
// instead of calling the functions four times for each (10,000 patients: measured in the closing note of issue 30).
import { type Kysely, sql } from 'kysely';

const ACCENTED = 'àáâãåāăçćčďèéêëēėęěğìíîïīıłñńňòóôõøōřśšşťùúûūůűýÿźżžÀÁÂÃÅĀĂÇĆČĎÈÉÊËĒĖĘĚĞÌÍÎÏĪIŁÑŃŇÒÓÔÕØŌŘŚŠŞŤÙÚÛŪŮŰÝŸŹŻŽ';
const PLAIN = 'aaaaaaacccdeeeeeeeegiiiiiilnnnoooooorssstuuuuuuyyzzzaaaaaaacccdeeeeeeeegiiiiiilnnnoooooorssstuuuuuuyyzzz';

const LIST_INDEXES = (key: (column: string) => string) => `
    create index patients_by_latest_desc on patients
      (clinic_id, status, latest_session_at desc nulls last, ${key('name')}, ${key('second_name')}, id);
    create index patients_by_latest_asc on patients
      (clinic_id, status, latest_session_at asc nulls last, ${key('name')}, ${key('second_name')}, id);
    create index patients_by_name on patients (clinic_id, status, ${key('name')}, ${key('second_name')}, id);
    create index patients_by_second_name on patients (clinic_id, status, ${key('second_name')}, ${key('name')}, id);
    create index patients_by_birthday on patients (clinic_id, status, birthday, ${key('name')}, ${key('second_name')}, id);
    create index patients_by_sessions on patients (clinic_id, status, sessions_count, ${key('name')}, ${key('second_name')}, id);
    create index patients_by_created on patients (clinic_id, status, created_at, ${key('name')}, ${key('second_name')}, id);
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
    create function patient_name_key(value text) returns text language sql immutable parallel safe as $$
      select replace(lower(translate(value, 'äöüÄÖÜ${ACCENTED}', 'aouaou${PLAIN}')), 'ß', 'ss')
    $$;
    create function patient_name_key_expanded(value text) returns text language sql immutable parallel safe as $$
      select replace(lower(translate(regexp_replace(regexp_replace(regexp_replace(value, '[äÄ]', 'ae', 'g'), '[öÖ]', 'oe', 'g'), '[üÜ]', 'ue', 'g'), '${ACCENTED}', '${PLAIN}')), 'ß', 'ss')
    $$;
    ${DROP_LIST_INDEXES}
    ${LIST_INDEXES((column) => `patient_name_key(${column})`)}
    alter table patients add column name_search text generated always as (
      patient_name_key(name || ' ' || second_name) || '|' || patient_name_key(second_name || ' ' || name) || '|' ||
      patient_name_key_expanded(name || ' ' || second_name) || '|' || patient_name_key_expanded(second_name || ' ' || name)
    ) stored;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
    alter table patients drop column name_search;
    ${DROP_LIST_INDEXES}
    ${LIST_INDEXES((column) => `lower(${column})`)}
    drop function patient_name_key_expanded(text);
    drop function patient_name_key(text);
  `,
    )
    .execute(db);
}
