import { describe, expect, it } from 'vitest';
import type { PatientComparison } from '@generated/model/patientComparison';
import { agreeingFields, sentenceStart } from './patient-comparison';

const maria = { name: 'Maria', secondName: 'Schneider', birthday: '1951-04-23', gender: 'female' } as const;
const comparison = (differences: PatientComparison['differences'], cardDeviceId: string | null): PatientComparison => ({
  differences,
  file: { ...maria, deviceId: 'NPT-0000999' },
  uploadedFor: { ...maria, id: 'a1c3e5f7-0b2d-4e6f-8a9b-1c2d3e4f5a61', deviceId: cardDeviceId },
  confirmable: differences.length === 1 && differences[0] === 'deviceId',
});

describe('what an exam file and its patient agree in', () => {
  it('is every field that does not differ', () => {
    expect(agreeingFields(comparison(['deviceId'], 'NPT-0000184'))).toEqual(['name', 'secondName', 'birthday', 'gender']);
    expect(agreeingFields(comparison(['deviceId', 'birthday'], 'NPT-0000184'))).toEqual(['name', 'secondName', 'gender']);
  });

  it('leaves out the device patient id where the patient has none', () => {
    expect(agreeingFields(comparison(['name', 'birthday'], null))).toEqual(['secondName', 'gender']);
  });

  it('writes a list that starts a sentence with a capital in either language', () => {
    expect(sentenceStart('name and birthday', 'en')).toBe('Name and birthday');
    expect(sentenceStart('Vorname und Geburtsdatum', 'de')).toBe('Vorname und Geburtsdatum');
  });
});
