// Issue reports can be withdrawn: a report made by mistake is marked withdrawn (by whom, when) and kept, and
// the session is unlocked. A session has at most one open report (a partial unique index), so a session that
// was reported and whose report was withdrawn may be reported again. Plain SQL for PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table treatment_issue_reports add column withdrawn_at timestamptz;
    -- The withdrawer's id as it was (null once the account is gone: the access log keeps the rest).
    alter table treatment_issue_reports add column withdrawn_by uuid;
    alter table treatment_issue_reports add column withdrawn_by_name text;
    alter table treatment_issue_reports add constraint treatment_issue_reports_withdrawn_check
      check ((withdrawn_at is null) = (withdrawn_by_name is null));
    alter table treatment_issue_reports drop constraint treatment_issue_reports_treatment_id_key;
    create unique index treatment_issue_reports_open on treatment_issue_reports (treatment_id) where withdrawn_at is null;
    create index treatment_issue_reports_treatment on treatment_issue_reports (treatment_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Only the open report of a session can stay under the old one-report-per-session rule.
  await sql`
    delete from treatment_issue_reports where withdrawn_at is not null;
    drop index treatment_issue_reports_treatment;
    drop index treatment_issue_reports_open;
    alter table treatment_issue_reports add constraint treatment_issue_reports_treatment_id_key unique (treatment_id);
    alter table treatment_issue_reports drop constraint treatment_issue_reports_withdrawn_check;
    alter table treatment_issue_reports drop column withdrawn_by_name;
    alter table treatment_issue_reports drop column withdrawn_by;
    alter table treatment_issue_reports drop column withdrawn_at;
  `.execute(db);
}
