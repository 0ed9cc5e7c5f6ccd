// Indexes for the other lists, after their plans (docs/architecture.md, "Performance of the lists"):
// - staff (listUsers): the default order (last name, first name, id) read off an index instead of sorting
//   every user of the clinic;
// - notifications (listNotifications): the page in its exact order (newest first, id as tie-breaker), and
//   the unread badge counted from the unread ones alone instead of every notification of the user;
// - sessions of a patient (listPatientTreatments, and the list's latest session per patient): newest first
//   with the session number as tie-breaker, one index probe for the latest.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index users_by_name on users (clinic_id, lower(last_name), lower(first_name), id);
    drop index notifications_user_idx;
    create index notifications_by_user on notifications (user_id, created_at desc, id desc);
    create index notifications_unread on notifications (user_id) where read_at is null;
    drop index treatments_patient_idx;
    create index treatments_by_patient on treatments (patient_id, date desc, number desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index users_by_name, notifications_by_user, notifications_unread, treatments_by_patient;
    create index notifications_user_idx on notifications (user_id, created_at desc);
    create index treatments_patient_idx on treatments (patient_id, date desc);
  `.execute(db);
}
