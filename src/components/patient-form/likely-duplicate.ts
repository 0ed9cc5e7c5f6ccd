import type { LikelyDuplicatePatientError } from '@generated/model/likelyDuplicatePatientError';
import type { PatientMatch } from '@generated/model/patientMatch';
import { ApiError } from '@/lib/api-client';

/** The patients a 409 `patient.likely_duplicate` names; undefined for any other failure. */
export function likelyDuplicatesOf(error: unknown): PatientMatch[] | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  const body = error.body as Partial<LikelyDuplicatePatientError> | undefined;
  return body?.code === 'patient.likely_duplicate' && body.patients?.length ? body.patients : undefined;
}

/** What the server compares to find a likely duplicate. */
export type PatientIdentity = { name: string; secondName: string; birthday: string };

/**
 * Whether the form still holds the entry a warning was given for. Names are compared as sent (trimmed): a
 * changed name or birthday may be another patient, so the warning and its "Create anyway" no longer apply.
 */
export function isSameEntry(warned: PatientIdentity, now: PatientIdentity): boolean {
  return warned.name.trim() === now.name.trim() && warned.secondName.trim() === now.secondName.trim() && warned.birthday === now.birthday;
}
