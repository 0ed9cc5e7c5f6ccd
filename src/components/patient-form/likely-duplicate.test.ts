import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { isSameEntry, likelyDuplicatesOf } from './likely-duplicate';

const failure = (status: number, body: unknown) =>
  new ApiError({ data: body, status, statusText: '', headers: {}, config: {} } as unknown as ConstructorParameters<typeof ApiError>[0]);
const maria = { id: 'a1c3e5f7-0b2d-4e6f-8a9b-1c2d3e4f5a61', name: 'Maria', secondName: 'Schneider', birthday: '1951-04-23', gender: 'female', status: 'active' };

describe('a likely duplicate', () => {
  it('is read from the 409 that names it', () => {
    const error = failure(409, { status: 'Error', message: 'A patient with this name and birthday already exists.', code: 'patient.likely_duplicate', patients: [maria] });
    expect(likelyDuplicatesOf(error)).toEqual([maria]);
  });

  it('is no other failure', () => {
    expect(likelyDuplicatesOf(failure(409, { status: 'Error', message: 'x', code: 'patient.deletion_already_requested' }))).toBeUndefined();
    expect(likelyDuplicatesOf(failure(422, { status: 'Error', message: 'x', code: 'patient.likely_duplicate', patients: [maria] }))).toBeUndefined();
    expect(likelyDuplicatesOf(failure(409, { status: 'Error', message: 'x', code: 'patient.likely_duplicate', patients: [] }))).toBeUndefined();
    expect(likelyDuplicatesOf(new Error('offline'))).toBeUndefined();
  });

  it('applies while name, second name and birthday are as sent', () => {
    const warned = { name: 'Maria', secondName: 'Schneider', birthday: '1951-04-23' };
    expect(isSameEntry(warned, { name: ' Maria ', secondName: 'Schneider', birthday: '1951-04-23' })).toBe(true);
    expect(isSameEntry(warned, { name: 'Marie', secondName: 'Schneider', birthday: '1951-04-23' })).toBe(false);
    expect(isSameEntry(warned, { name: 'Maria', secondName: 'Schneider', birthday: '1951-04-24' })).toBe(false);
  });
});
