// The queries of the previous treatment on today's image (issue 17): the earlier planned sessions of a
// session's eye, and the registration of an earlier session's image onto today's (treatment_registrations), one
// row per pair. Each takes the database or the transaction its service opened; the rules are in
// services/previous-treatment.ts.
import { sql } from 'kysely';
import type { Queryable, RegistrationLandmarks, TreatmentRow } from '../db/tables';

/** What the list of earlier sessions shows of each: not its plan, which only the one shown needs. */
export interface EarlierSession {
  id: string;
  number: number;
  date: Date | string;
  sign_off_at: string | null;
  /** When the laser last reported this session treated (issue 29). */
  treated_at: Date | string | null;
}

/**
 * Every earlier processed session of the patient's same eye whose plan has reached `fromStepIndex` and has
 * spots: signed-off ones first, then drafts; each by exam date, then number, newest first.
 */
export function earlierPlannedSessions(
  db: Queryable,
  today: Pick<TreatmentRow, 'id' | 'patient_id' | 'clinic_id' | 'eye' | 'date' | 'number'>,
  fromStepIndex: number,
): Promise<EarlierSession[]> {
  return db
    .selectFrom('treatments')
    .select(['id', 'number', 'date', sql<string | null>`plan->'signOff'->>'at'`.as('sign_off_at')])
    .select(
      sql<Date | null>`(select t.finished_at from parameter_set_transfers t where t.treatment_id = treatments.id and t.status = 'treated' order by t.sequence desc limit 1)`.as(
        'treated_at',
      ),
    )
    .where('patient_id', '=', today.patient_id)
    .where('clinic_id', '=', today.clinic_id)
    .where('eye', '=', today.eye)
    .where('id', '!=', today.id)
    .where('processing_state', '=', 'processed')
    .where('step_index', '>=', fromStepIndex)
    .where(sql<boolean>`jsonb_array_length(coalesce(plan->'spots', '[]'::jsonb)) > 0`)
    .where((eb) => eb.or([eb('date', '<', today.date), eb.and([eb('date', '=', today.date), eb('number', '<', today.number)])]))
    .orderBy(sql`jsonb_typeof(plan->'signOff') = 'object'`, 'desc')
    .orderBy('date', 'desc')
    .orderBy('number', 'desc')
    .execute();
}

/** The registration of the earlier session's image onto today's, if it was ever asked for. */
export function registrationOf(db: Queryable, treatmentId: string, earlierTreatmentId: string) {
  return db
    .selectFrom('treatment_registrations')
    .selectAll()
    .where('treatment_id', '=', treatmentId)
    .where('earlier_treatment_id', '=', earlierTreatmentId)
    .executeTakeFirst();
}

/** The registrations of today's session still to be found. */
export function pendingRegistrations(db: Queryable, treatmentId: string) {
  return db.selectFrom('treatment_registrations').selectAll().where('treatment_id', '=', treatmentId).where('state', '=', 'pending').execute();
}

/** Adds the pair as pending; true when this call added it (false when another reader had). */
export async function insertPendingRegistration(
  db: Queryable,
  pair: { treatmentId: string; earlierTreatmentId: string; clinicId: string },
): Promise<boolean> {
  const row = await db
    .insertInto('treatment_registrations')
    .values({ treatment_id: pair.treatmentId, earlier_treatment_id: pair.earlierTreatmentId, clinic_id: pair.clinicId, state: 'pending' })
    .onConflict((oc) => oc.doNothing())
    .returning('treatment_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks a found (or failed) pair pending again; true when this call did (false when it already was). */
export async function markRegistrationPending(db: Queryable, treatmentId: string, earlierTreatmentId: string, at: Date): Promise<boolean> {
  const row = await db
    .updateTable('treatment_registrations')
    .set({ state: 'pending', updated_at: at })
    .where('treatment_id', '=', treatmentId)
    .where('earlier_treatment_id', '=', earlierTreatmentId)
    .where('state', '!=', 'pending')
    .returning('treatment_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** How a pair's registration ended, with the landmarks it was found from. */
export type RegistrationOutcome = { landmarks: RegistrationLandmarks | null } & (
  | {
      state: 'registered';
      method: 'landmarks' | 'vessels';
      transform: { a: number; b: number; tx: number; ty: number };
      uncertaintyUm: number;
      vesselAgreement: number | null;
    }
  | { state: 'failed'; code: string }
);

export async function recordRegistration(
  db: Queryable,
  treatmentId: string,
  earlierTreatmentId: string,
  outcome: RegistrationOutcome,
  at: Date,
): Promise<void> {
  await db
    .updateTable('treatment_registrations')
    .set(
      outcome.state === 'registered'
        ? {
            state: 'registered',
            method: outcome.method,
            transform: JSON.stringify(outcome.transform),
            uncertainty_um: outcome.uncertaintyUm,
            vessel_agreement: outcome.vesselAgreement,
            error_code: null,
            landmarks: outcome.landmarks && JSON.stringify(outcome.landmarks),
            updated_at: at,
          }
        : { state: 'failed', error_code: outcome.code, landmarks: outcome.landmarks && JSON.stringify(outcome.landmarks), updated_at: at },
    )
    .where('treatment_id', '=', treatmentId)
    .where('earlier_treatment_id', '=', earlierTreatmentId)
    .execute();
}
