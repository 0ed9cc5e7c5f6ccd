// Labelling and measuring (issue 17): the clinic's labels and the marks on the fundus images of a session.
// Plain SQL that runs unchanged on PGlite and PostgreSQL.
//
// The eight default labels are rows like the clinic's own (key set, names null: their names come from the
// locale files when read, so a corrected translation reaches every clinic). Rows make every label an id a mark
// can refer to; they are written for a clinic the first time its labels are needed (services/annotations.ts).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table annotation_labels (
      id uuid primary key default gen_random_uuid(),
      clinic_id uuid not null references clinics (id) on delete cascade,
      -- A default label's key; null for a label the clinic added.
      key text,
      -- A clinic's own label's names (one given alone is stored in both); null for a default.
      name_en text,
      name_de text,
      created_by uuid references users (id) on delete set null,
      created_by_name text,
      created_at timestamptz not null default now(),
      -- The order labels were added in (clocks may tie).
      seq bigint generated always as identity,
      unique (clinic_id, key),
      check ((key is null) = (name_en is not null and name_de is not null))
    );
    create index annotation_labels_clinic_idx on annotation_labels (clinic_id, seq);

    -- A mark on one image of a session; it goes with the session, the image and the patient.
    create table annotations (
      id uuid primary key default gen_random_uuid(),
      clinic_id uuid not null references clinics (id) on delete cascade,
      treatment_id uuid not null references treatments (id) on delete cascade,
      image_id uuid not null references treatment_images (id) on delete cascade,
      label_id uuid not null references annotation_labels (id),
      -- The shape as drawn, in pixels of the image's display version (the contract's AnnotationShape).
      shape jsonb not null,
      note text,
      version integer not null default 1,
      -- Who placed it, as named then: the mark outlives the account.
      created_by uuid references users (id) on delete set null,
      created_by_name text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      -- The order marks were placed in (clocks may tie).
      seq bigint generated always as identity
    );
    create index annotations_image_idx on annotations (image_id, seq);
    create index annotations_treatment_idx on annotations (treatment_id);
    create index annotations_label_idx on annotations (label_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table annotations, annotation_labels`.execute(db);
}
