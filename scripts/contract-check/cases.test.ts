// @vitest-environment node
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CaseBuilder, type Case } from './cases';
import { loadContract } from './contract';
import { createRequestValidity } from './request-validity';

// The real contract: the cases must be judged by its schemas, not by the mutation's name.
const contract = loadContract(join(process.cwd(), 'generated/openapi.yaml'));
const builder = (seed = 1) =>
  new CaseBuilder(
    {
      document: contract.document,
      validity: createRequestValidity(contract.document),
      roles: ['clinic_it_admins', 'clinic_physicians', 'clinic_nurses'],
      pathValues: () => [],
      scrub: (_, value) => value,
    },
    seed,
  );
const operation = (id: string) => contract.operations.find((o) => o.operationId === id)!;
const find = (cases: Case[], label: string) => cases.find((c) => c.label === label)!;

describe('CaseBuilder', () => {
  it('sends the examples as a listed role and expects conforming answers', () => {
    const cases = builder().deterministic(operation('createPatient'));
    const example = find(cases, 'application/json example 1');
    expect(example.expectation).toBe('conforming');
    expect(['clinic_physicians', 'clinic_nurses']).toContain((example.auth as { role: string }).role);
    expect(JSON.parse(example.request.body!.toString())).toMatchObject({ name: 'Peter', secondName: 'Neumann' });
  });

  it('expects a refusal exactly where the schema makes the variant invalid', () => {
    const cases = builder().deterministic(operation('markNotificationsRead'));
    expect(find(cases, 'application/json extra field constructor').expectation).toBe('rejected');
    expect(find(cases, 'Content-Type: text/plain (not declared)').expectation).toBe('rejected');
    expect(find(cases, 'application/json truncated JSON').expectation).toBe('rejected');
  });

  it('builds the x-roles matrix: no and made-up credentials must get 401, roles not listed 403', () => {
    const cases = builder().deterministic(operation('deletePatients')).filter((c) => c.kind === 'auth');
    expect(cases.filter((c) => c.expectation === 'unauthenticated').length).toBe(4);
    expect(cases.filter((c) => c.expectation === 'forbidden').map((c) => (c.auth as { role: string }).role).sort()).toEqual(['clinic_nurses', 'clinic_physicians']);
  });

  it('sends a broken path id raw, as a client would', () => {
    const cases = builder().deterministic(operation('getPatient'));
    expect(find(cases, 'path id: invalid UTF-8 %ff%fe').request.target).toBe('/patients/%ff%fe');
    expect(find(cases, 'path id: invalid UTF-8 %ff%fe').expectation).toBe('rejected');
  });

  it('gives the same random cases for the same seed and others for another', () => {
    const targets = (seed: number) => Array.from({ length: 6 }, (_, i) => builder(seed).random(operation('listPatients'), i)!.request.target);
    expect(targets(7)).toEqual(targets(7));
    expect(targets(7)).not.toEqual(targets(8));
    // 18 random cases from the whole contract's schemas: about 5 s on a busy 2-core machine.
  }, 30_000);
});
