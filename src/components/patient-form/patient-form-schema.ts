import { z } from 'zod';
import { createPatientBody } from '@generated/zod/patients/patients.zod';
import { EARLIEST_BIRTHDAY } from '@/lib/date-text';
import { PATIENT_LIMITS, type PatientFieldError } from './patient-form-limits';

const issue = (message: PatientFieldError) => ({ message });

/**
 * The contract's PatientCreate plus what the form checks before sending: names trimmed and not blank, a real
 * date, not in the future and not before 1900. Messages are PatientFieldError keys. `confirmDuplicate` is
 * no field of the form: a person sets it by "Create anyway" after the server named a likely duplicate.
 */
export function patientFormSchema(today: string) {
  const text = (max: number) => z.string().trim().min(1, issue('required')).max(max, issue('tooLong'));
  return createPatientBody.omit({ confirmDuplicate: true }).extend({
    name: text(PATIENT_LIMITS.name),
    secondName: text(PATIENT_LIMITS.secondName),
    birthday: z
      .string()
      .min(1, issue('required'))
      .pipe(z.iso.date(issue('invalidDate')))
      .refine((value) => value <= today, issue('birthdayFuture'))
      .refine((value) => value >= EARLIEST_BIRTHDAY, issue('birthdayTooEarly')),
    gender: z.enum(['male', 'female', 'other'], issue('required')),
    description: z.string().max(PATIENT_LIMITS.description, issue('tooLong')),
  });
}

export type PatientFormInput = z.input<ReturnType<typeof patientFormSchema>>;
export type PatientFormValues = z.output<ReturnType<typeof patientFormSchema>>;

