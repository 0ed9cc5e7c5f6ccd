import type { PatientFormInput } from './patient-form-schema';

/*
 * What the patient form needs without its validation code (zod loads only when the form validates: see
 * src/components/deferred-resolver.ts).
 */

/** The contract's limits on a patient's data, for maxLength and the description's counter. */
export const PATIENT_LIMITS = {
  name: 100,
  secondName: 100,
  description: 2000,
} as const;

/** Why a field is refused; `patients:form.errors.<key>` says it in the UI language. */
export type PatientFieldError = 'required' | 'invalidDate' | 'birthdayFuture' | 'birthdayTooEarly' | 'tooLong';

/** An empty form; gender is chosen on purpose, never preset. */
export const EMPTY_PATIENT_FORM: PatientFormInput = {
  name: '',
  secondName: '',
  birthday: '',
  gender: '' as PatientFormInput['gender'],
  description: '',
};

export const PATIENT_FORM_FIELDS = ['name', 'secondName', 'birthday', 'gender', 'description'] as const;
