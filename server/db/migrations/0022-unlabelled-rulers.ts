// A ruler (a line mark) may be saved without a label: measuring a distance is not a finding. The label column
// of marks becomes nullable, and a check keeps every other shape labelled.
// Plain SQL that runs unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table annotations alter column label_id drop not null;
    alter table annotations add constraint annotations_label_unless_line
      check (label_id is not null or shape->>'kind' = 'line');
  `.execute(db);
}

// Back to labels on every mark: an unlabelled ruler takes its clinic's default label "other" (written first for
// a clinic that has not needed its labels yet; the defaults' keys are unique per clinic).
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into annotation_labels (clinic_id, key)
      select distinct clinic_id, 'other' from annotations where label_id is null
      on conflict (clinic_id, key) do nothing;
    update annotations a set label_id = l.id
      from annotation_labels l
      where a.label_id is null and l.clinic_id = a.clinic_id and l.key = 'other';
    alter table annotations drop constraint annotations_label_unless_line;
    alter table annotations alter column label_id set not null;
  `.execute(db);
}
