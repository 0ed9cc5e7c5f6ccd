// The patient list's version (migration 0005) is raised by a change to a session only where the list shows it.
// The list shows of each patient's latest session its date, its plan status (locked, processing state, step) and
// its transfer status (its own trigger, migration 0018); which session is the latest follows its patient, date and
// number. A plan edit in the wizard (zones, grid, brightness: the `plan` column, at the same step) changes none of
// these, yet raised the version of the whole clinic's list, so every user's next list page was read again (and,
// while exams were processed, each proposal the job wrote did the same).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger treatments_cache_version on treatments;
    create constraint trigger treatments_cache_version after insert or delete on treatments
      deferrable initially deferred for each row execute function cache_versions_clinic_rows();
    create constraint trigger treatments_listed_cache_version after update on treatments
      deferrable initially deferred for each row
      when ((old.clinic_id, old.patient_id, old.date, old.number, old.step, old.processing_state, old.locked)
        is distinct from (new.clinic_id, new.patient_id, new.date, new.number, new.step, new.processing_state, new.locked))
      execute function cache_versions_clinic_rows();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger treatments_listed_cache_version on treatments;
    drop trigger treatments_cache_version on treatments;
    create constraint trigger treatments_cache_version after insert or update or delete on treatments
      deferrable initially deferred for each row execute function cache_versions_clinic_rows();
  `.execute(db);
}
