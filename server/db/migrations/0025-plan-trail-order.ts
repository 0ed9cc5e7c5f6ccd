// The plan's audit trail (plan_changes, migration 0007) was read in revision, time and then id order. Entries of
// one revision written at the same instant (a report and its withdrawal under a fixed clock, or two entries of one
// transaction) came in the order of their random uuids, so the trail could show a withdrawal before its report.
// `seq` numbers the entries as they are written; the trail reads revision, time, then `seq`. Existing entries are
// numbered as they lie in the table, which keeps their order wherever their time already decided it.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table plan_changes add column seq bigint generated always as identity;
    drop index plan_changes_by_treatment;
    create index plan_changes_by_treatment on plan_changes (treatment_id, revision, at, seq);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index plan_changes_by_treatment;
    alter table plan_changes drop column seq;
    create index plan_changes_by_treatment on plan_changes (treatment_id, revision, at);
  `.execute(db);
}
