// What the patient card changes on a session: its description, and "Report issue", which locks it for good.
// Services without HTTP: they take the database, the clock and the acting user.
import type { IssueReportInput } from '../../generated/model/issueReportInput';
import type { TreatmentUpdate } from '../../generated/model/treatmentUpdate';
import type { Transaction } from 'kysely';
import type { AppContext } from '../context';
import type { Tables } from '../db/tables';
import { HttpError, invalid, notFound } from '../http/errors';
import { displayName } from './people';

export interface Actor {
  userId: string;
  clinicId: string;
}

type Tx = Transaction<Tables>;

// Control characters have no place in a free text (NUL cannot even be stored); line breaks may stay.
// eslint-disable-next-line no-control-regex
const TEXT_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The session row, locked for the rest of the transaction; 404 outside the actor's clinic or active patients. */
async function lockedRow(tx: Tx, actor: Actor, treatmentId: string) {
  const row = await tx
    .selectFrom('treatments as t')
    .innerJoin('patients as p', 'p.id', 't.patient_id')
    .select(['t.id', 't.patient_id', 't.locked'])
    .where('t.clinic_id', '=', actor.clinicId)
    .where('t.id', '=', treatmentId)
    .where('p.status', '=', 'active')
    .forUpdate('t')
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/**
 * The fields of TreatmentUpdate this server changes today: the description. Eye and laser settings reset
 * plan steps and arrive with the planning steps (501 until then).
 */
export async function updateTreatmentDetails(ctx: AppContext, actor: Actor, treatmentId: string, update: TreatmentUpdate) {
  const { description, ...others } = update;
  if (Object.keys(others).length > 0) {
    throw new HttpError(501, 'treatment.settings_not_implemented', 'treatment.settings_not_implemented');
  }
  const text = description === null || description === undefined ? null : description.trim() || null;
  if (text !== null && TEXT_FORBIDDEN.test(text)) throw invalid({ description: ['validation.invalid'] });
  return ctx.db.transaction().execute(async (tx) => {
    const row = await lockedRow(tx, actor, treatmentId);
    if (row.locked) throw new HttpError(423, 'treatment.locked', 'treatment.locked');
    await tx
      .updateTable('treatments')
      .set({ description: text, updated_at: ctx.clock.now() })
      .where('id', '=', row.id)
      .execute();
    return row;
  });
}

/** "Report issue": records why, locks the session for good. A session is reported once (409 after). */
export async function reportIssue(ctx: AppContext, actor: Actor, treatmentId: string, input: IssueReportInput) {
  const reason = input.reason.trim();
  if (!reason) throw invalid({ reason: ['validation.required'] });
  if (TEXT_FORBIDDEN.test(reason)) throw invalid({ reason: ['validation.invalid'] });
  return ctx.db.transaction().execute(async (tx) => {
    const row = await lockedRow(tx, actor, treatmentId);
    if (row.locked) throw new HttpError(409, 'treatment.already_reported', 'treatment.already_reported');
    const reporter = await tx
      .selectFrom('users')
      .select(['first_name', 'last_name', 'physician_name'])
      .where('id', '=', actor.userId)
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('treatment_issue_reports')
      .values({
        clinic_id: actor.clinicId,
        treatment_id: row.id,
        reason,
        reported_by: actor.userId,
        reported_by_name: displayName(reporter),
        reported_at: ctx.clock.now(),
      })
      .execute();
    await tx.updateTable('treatments').set({ locked: true, updated_at: ctx.clock.now() }).where('id', '=', row.id).execute();
    return row;
  });
}
