import type { PatientComparison } from '@generated/model/patientComparison';
import { PatientField } from '@generated/model/patientField';

/**
 * The fields in which an exam file and the patient it was uploaded for agree, in the contract's order: all but
 * the differences, and the device patient id only where the patient has one (without, it was not compared).
 */
export function agreeingFields(comparison: PatientComparison): PatientField[] {
  return Object.values(PatientField).filter(
    (field) => !comparison.differences.includes(field) && (field !== 'deviceId' || comparison.uploadedFor.deviceId !== null),
  );
}

/** "name, birthday and gender" → "Name, birthday and gender": a list that starts a sentence. */
export function sentenceStart(text: string, language: string): string {
  return text.charAt(0).toLocaleUpperCase(language) + text.slice(1);
}
