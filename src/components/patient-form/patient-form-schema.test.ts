import { describe, expect, it } from 'vitest';
import { EMPTY_PATIENT_FORM } from './patient-form-limits';
import { patientFormSchema } from './patient-form-schema';

const schema = patientFormSchema('2026-11-24');
const valid = { name: ' Maria ', secondName: 'Schneider', birthday: '1951-04-23', gender: 'female' as const, description: '' };
const errors = (input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe('the patient form', () => {
  it('accepts a patient and trims the names', () => {
    expect(schema.parse(valid)).toEqual({ ...valid, name: 'Maria' });
  });

  it('names every missing field', () => {
    expect(errors({ ...EMPTY_PATIENT_FORM, name: '   ' })).toEqual({
      name: 'required',
      secondName: 'required',
      birthday: 'required',
      gender: 'required',
    });
  });

  it('refuses a birthday in the future, before 1900 or not on the calendar', () => {
    expect(errors({ ...valid, birthday: '2026-11-25' })).toEqual({ birthday: 'birthdayFuture' });
    expect(errors({ ...valid, birthday: '2026-11-24' })).toEqual({});
    expect(errors({ ...valid, birthday: '1899-12-31' })).toEqual({ birthday: 'birthdayTooEarly' });
    expect(errors({ ...valid, birthday: '2023-02-29' })).toEqual({ birthday: 'invalidDate' });
  });

  it('keeps to the contract’s lengths', () => {
    expect(errors({ ...valid, name: 'x'.repeat(101), description: 'y'.repeat(2001) })).toEqual({
      name: 'tooLong',
      description: 'tooLong',
    });
  });
});
