// The sessions' transfers in the product (issue 29): their order, and the patient list's version.
// - A physician may cancel and send again within the same millisecond of the server's clock, so a session's
//   latest transfer is the one inserted last (`sequence`), not the one queued last.
// - The patient list shows the latest session's transfer status, so a transfer's change raises the clinic's
//   list version as a session's does (migration 0005).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table parameter_set_transfers add column sequence bigint generated always as identity;
    drop index parameter_set_transfers_treatment_idx;
    create index parameter_set_transfers_treatment_idx on parameter_set_transfers (treatment_id, sequence desc);
    create constraint trigger parameter_set_transfers_cache_version after insert or update or delete on parameter_set_transfers
      deferrable initially deferred for each row execute function cache_versions_clinic_rows();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger parameter_set_transfers_cache_version on parameter_set_transfers;
    drop index parameter_set_transfers_treatment_idx;
    alter table parameter_set_transfers drop column sequence;
    create index parameter_set_transfers_treatment_idx on parameter_set_transfers (treatment_id, queued_at);
  `.execute(db);
}
