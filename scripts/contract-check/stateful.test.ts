// @vitest-environment node
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from './contract';
import { findFlows, holds, readableFields, roundTrip, uniqueVariant } from './stateful';

const contract = loadContract(join(process.cwd(), 'generated/openapi.yaml'));
const operation = (id: string) => contract.operations.find((o) => o.operationId === id)!;

describe('stateful flows', () => {
  it('finds create → read → update → delete from the paths', () => {
    const patients = findFlows(contract.operations).find((f) => f.create.operationId === 'createPatient')!;
    expect([patients.read.operationId, patients.update?.operationId, patients.remove?.operationId, patients.idParameter]).toEqual(['getPatient', 'updatePatient', 'deletePatient', 'id']);
  });

  it('fails a written field that is read back missing or changed, not one the resource does not have', () => {
    const fields = readableFields(contract.document, operation('getPatient'));
    expect(fields?.has('description')).toBe(true);
    const written = { name: 'Peter', description: 'Referred', confirmDuplicate: true };
    expect(roundTrip(written, { data: { name: 'Peter', description: 'Referred' } }, fields, 'created').ok).toBe(true);
    const lost = roundTrip(written, { data: { name: 'Peter', description: null } }, fields, 'created');
    expect(lost).toMatchObject({ check: 'round_trip', ok: false });
    expect(lost.message).toBe('created: description written as "Referred", read back as null');
  });

  it('compares up to normalisation: dates, e-mail case, Unicode form and surrounding space', () => {
    expect(holds({ at: '2026-01-01T00:00:00Z', email: 'A@Example.org', name: ' Müller', tags: ['a'] }, { at: '2026-01-01T00:00:00.000Z', email: 'a@example.org', name: 'Mu\u0308ller', tags: ['a'], extra: 1 })).toBe(true);
    expect(holds({ tags: ['a', 'b'] }, { tags: ['a'] })).toBe(false);
    expect(holds({ n: 1 }, { n: '1' })).toBe(false);
  });

  it('makes the free-text fields of a create unique, leaving formatted ones alone', () => {
    const value = uniqueVariant(contract.document, operation('createPatient'), { name: 'Peter', birthday: '1961-07-08', gender: 'male' }) as Record<string, string>;
    expect(value.name).toMatch(/^Peter \w{5}$/);
    expect([value.birthday, value.gender]).toEqual(['1961-07-08', 'male']);
  });
});
